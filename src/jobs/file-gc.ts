/**
 * The file garbage collection (domain/versions/files/blob-gc.ts, also `quire files gc`), and with it
 * that of stored page bodies no entry names (revisions/document-gc.ts), run by the job runner every QUIRE_FILE_GC_INTERVAL_HOURS (0: never). One graphile-worker job under a fixed
 * job key stands for the next run, whatever the number of instances: each worker's start adds it
 * only when it is missing (`preserve_run_at`: a restart never postpones it), and the run adds
 * the one after it before collecting (a run that fails still leaves the next one queued). Its
 * own queue runs one collection at a time across instances.
 */
import type { AddJobFunction, Task } from 'graphile-worker';
import { collectGarbage } from '../domain/versions/files/blob-gc.js';
import { collectDocuments } from '../domain/versions/revisions/document-gc.js';
import { blobBackend } from '../domain/versions/files/blob-store.js';
import type { JobServices } from './handler.js';

export const FILE_GC_TASK = 'collect_file_garbage';

/** The first collection of a worker that finds none queued: soon after it starts, not a whole interval later. */
const FIRST_RUN_DELAY_MS = 60_000;

const options = (runAt: Date, mode: 'replace' | 'preserve_run_at') => ({
  jobKey: FILE_GC_TASK,
  jobKeyMode: mode,
  queueName: FILE_GC_TASK,
  runAt,
  // No retries: the next run is queued already, and a failure is logged.
  maxAttempts: 1,
});

/** At a worker's start: queues the collection if none is (or drops it when the interval is 0). */
export async function scheduleFileGc(addJob: AddJobFunction, removeJob: (key: string) => Promise<unknown>, intervalMs: number, firstDelayMs = FIRST_RUN_DELAY_MS): Promise<void> {
  if (intervalMs <= 0) return void (await removeJob(FILE_GC_TASK));
  await addJob(FILE_GC_TASK, {}, options(new Date(Date.now() + Math.min(firstDelayMs, intervalMs)), 'preserve_run_at'));
}

export function fileGcTask(services: JobServices): Task {
  const { db, logger, config } = services;
  return async (_payload, helpers) => {
    // The run holds its job locked: the job key goes to a new job, the next run.
    if (config.fileGcIntervalMs > 0) await helpers.addJob(FILE_GC_TASK, {}, options(new Date(Date.now() + config.fileGcIntervalMs), 'replace'));
    const started = Date.now();
    const result = await collectGarbage(db, blobBackend(config, db), { graceMs: config.fileGcGraceMs });
    logger.info({ store: config.fileStore ?? 'disk', ...result, durationMs: Date.now() - started }, 'file garbage collection: removed unreferenced file bytes');
    const bodiesStarted = Date.now();
    const documents = await collectDocuments(db, { graceMs: config.fileGcGraceMs });
    logger.info({ ...documents, durationMs: Date.now() - bodiesStarted }, 'document garbage collection: removed page bodies no revision names');
  };
}
