/**
 * Tasks that come back on their own (the file garbage collection, the purge of expired spaces,
 * the custom hostname checks, the webhook log's retention). One graphile-worker job, keyed by the
 * task's name, stands for the next run whatever the number of instances: a runner's start adds it
 * only when it is missing (`preserve_run_at`: a restart never postpones it), and a run first adds
 * the one after it (`replace`), so a run that fails still leaves the next one queued. Each task has
 * a queue of its own: one run at a time across instances.
 *
 * Not graphile-worker's cron: a cron tick that met a database outage stopped its runner and
 * rejected a promise the runner leaves unhandled (`cron.promise.finally(...)`), which ends the
 * process (seen: `quire serve` exiting after its PostgreSQL was killed).
 */
import type { Task } from 'graphile-worker';
import type pg from 'pg';

/** A task run every `everyMs` (0: never; its queued run is removed); the first run `firstDelayMs` after a start that finds none queued. */
export type Recurring = { task: string; everyMs: number; firstDelayMs: number };

/** Queues the task's run `$2` ms from now under its key (`$3`: `preserve_run_at` or `replace`), on its own queue, without retries. */
const QUEUE_RUN = `SELECT graphile_worker.add_job($1::text, '{}'::json, queue_name => $1::text, run_at => now() + $2::float8 * interval '1 millisecond',
  max_attempts => 1, job_key => $1::text, job_key_mode => $3::text)`;

/** At a runner's start: queues the task's next run if none is, or removes it when the task is off. */
export async function scheduleRecurring(pool: pg.Pool, { task, everyMs, firstDelayMs }: Recurring): Promise<void> {
  if (everyMs <= 0) return void (await pool.query('SELECT graphile_worker.remove_job($1::text)', [task]));
  await pool.query(QUEUE_RUN, [task, Math.min(firstDelayMs, everyMs), 'preserve_run_at']);
}

/** The task as the runner runs it: the next run queued first, then `run` (no retries: the next run is queued already, and a failure is logged). */
export function recurringTask({ task, everyMs }: Recurring, run: Task): Task {
  return async (payload, helpers) => {
    // This run holds its job locked: the key goes to a new job, the next run.
    if (everyMs > 0) await helpers.query(QUEUE_RUN, [task, everyMs, 'replace']);
    await run(payload, helpers);
  };
}
