/**
 * The file garbage collection (domain/versions/files/blob-gc.ts, also `quire files gc`), and with it
 * that of stored page bodies no entry names (revisions/document-gc.ts), run by the job runner every
 * QUIRE_FILE_GC_INTERVAL_HOURS (0: never), as a recurring task (recurring.ts): one queued run
 * across instances, a restart never postponing it, one collection at a time.
 */
import type { Task } from 'graphile-worker';
import type { Config } from '../config.js';
import { collectGarbage } from '../domain/versions/files/blob-gc.js';
import { collectDocuments } from '../domain/versions/revisions/document-gc.js';
import { blobBackend } from '../domain/versions/files/blob-store.js';
import type { JobServices } from './handler.js';
import { recurringTask, type Recurring } from './recurring.js';

export const FILE_GC_TASK = 'collect_file_garbage';

/** The collection's schedule; the first of a worker that finds none queued comes soon after it starts, not a whole interval later. */
export const fileGcSchedule = (config: Pick<Config, 'fileGcIntervalMs'>): Recurring => ({ task: FILE_GC_TASK, everyMs: config.fileGcIntervalMs, firstDelayMs: 60_000 });

export function fileGcTask(services: JobServices): Task {
  const { db, logger, config } = services;
  return recurringTask(fileGcSchedule(config), async () => {
    const started = Date.now();
    const result = await collectGarbage(db, blobBackend(config, db), { graceMs: config.fileGcGraceMs });
    logger.info({ store: config.fileStore ?? 'disk', ...result, durationMs: Date.now() - started }, 'file garbage collection: removed unreferenced file bytes');
    const bodiesStarted = Date.now();
    const documents = await collectDocuments(db, { graceMs: config.fileGcGraceMs });
    logger.info({ ...documents, durationMs: Date.now() - bodiesStarted }, 'document garbage collection: removed page bodies no revision names');
  });
}
