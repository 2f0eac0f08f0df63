/**
 * Waiting for a job to finish, for the REST operations that answer synchronously (an import, a
 * space copy): woken by the job's events, and reading the row every second as well, since an
 * event may never come (a worker in another process without Redis).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../db/client.js';
import { isFinished, type JobRow } from '../domain/work/jobs/rows.js';
import type { EventBus } from '../events/bus.js';

const POLL_MS = 1000;

/** The job once finished, or as it stands when `timeoutMs` has passed. */
export async function waitForJob(db: Db, events: EventBus, jobId: string, timeoutMs: number): Promise<JobRow> {
  const deadline = Date.now() + timeoutMs;
  const iterator = events.subscribeJob(jobId)[Symbol.asyncIterator]();
  try {
    let next = iterator.next();
    for (;;) {
      const job = await db.job.findUniqueOrThrow({ where: { id: jobId } });
      const left = deadline - Date.now();
      if (isFinished(job.state) || left <= 0) return job;
      const woke = await Promise.race([next.then(() => true), sleep(Math.min(POLL_MS, left)).then(() => false)]);
      if (woke) next = iterator.next();
    }
  } finally {
    await iterator.return?.();
  }
}
