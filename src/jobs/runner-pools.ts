/**
 * One start of the job runner: its two graphile-worker pools — jobs, and webhook deliveries
 * (webhooks/runner.ts) — on connections of their own, the recurring tasks scheduled
 * (recurring.ts), and the sweeper of jobs whose worker died (sweeper.ts).
 *
 * `failed` resolves once it can no longer run jobs as it should: a pool ended, or one of its
 * workers died. graphile-worker does not replace a worker that could not record a job's end
 * (its "seppuku", e.g. when the database went away meanwhile), so a runner that lost its workers
 * would sit idle while every request still succeeds. The supervisor (worker.ts) then stops this
 * one and starts another.
 */
import { EventEmitter } from 'node:events';
import { Logger, runTaskList, type WorkerEvents } from 'graphile-worker';
import { createQueuePool } from './queue-pool.js';
import { recurringJobs, taskList } from './tasks.js';
import type { JobServices } from './runner.js';
import { scheduleRecurring } from './recurring.js';
import { recoverLostJobs } from './sweeper.js';
import { startWebhookRunner, WEBHOOK_RETENTION } from './webhooks/runner.js';

/** Jobs run at once per worker process (imports, copies, git sync, OpenAPI processing, mail). */
const JOB_CONCURRENCY = 2;

export type RunnerPools = { failed: Promise<string>; stop(): Promise<void> };

export async function startRunnerPools(url: string, services: JobServices): Promise<RunnerPools> {
  const { logger, config } = services;
  const workerLogger = new Logger(() => (level, message) => {
    if (level === 'error') logger.error({ component: 'graphile-worker' }, message);
    else if (level === 'warning') logger.warn({ component: 'graphile-worker' }, message);
  });
  // A pool's connections: one per task in flight, its LISTEN connection, and one for its upkeep
  // (scheduling, resetting locks).
  const jobsPool = createQueuePool(url, JOB_CONCURRENCY + 2, logger, 'graphile-worker');
  const webhooksPool = createQueuePool(url, config.webhooks.concurrency + 2, logger, 'webhooks');
  const closePools = () => Promise.all([jobsPool.close(), webhooksPool.close()]);
  try {
    for (const recurring of recurringJobs(config)) await scheduleRecurring(jobsPool.pool, recurring);
    await scheduleRecurring(webhooksPool.pool, WEBHOOK_RETENTION);
  } catch (error) {
    await closePools();
    throw error;
  }

  let stopped = false;
  let fail: (why: string) => void = () => {};
  const failed = new Promise<string>((resolve) => (fail = (why) => !stopped && resolve(why)));
  const events = new EventEmitter() as WorkerEvents;
  events.on('worker:fatalError', ({ error }) => fail(`a queue worker stopped: ${(error as Error)?.message ?? error}`));
  const jobs = runTaskList({ concurrency: JOB_CONCURRENCY, noHandleSignals: true, pollInterval: 2000, logger: workerLogger, events }, taskList(services), jobsPool.pool);
  const webhooks = startWebhookRunner(webhooksPool.pool, services, workerLogger, events);
  for (const pool of [jobs, webhooks]) {
    pool.promise.then(
      () => fail('a queue pool ended'),
      (error: Error) => fail(`a queue pool ended: ${error.message}`),
    );
  }

  const staleMs = config.jobStaleMs;
  const sweep = () =>
    recoverLostJobs(services.db, services.events, staleMs, config)
      .then((lost) => lost.length && logger.warn({ jobs: lost.map((j) => j.id) }, 'took back jobs whose worker stopped'))
      .catch((error: Error) => logger.warn({ err: { message: error.message } }, 'looking for lost jobs failed'));
  void sweep();
  const sweeper = setInterval(sweep, Math.max(500, staleMs / 2));

  return {
    failed,
    async stop() {
      stopped = true;
      clearInterval(sweeper);
      // Running jobs are let finish (or see their signal); queue locks still held are released.
      await Promise.all([jobs.gracefulShutdown(), webhooks.gracefulShutdown()]).catch((error: Error) =>
        logger.warn({ err: { message: error.message } }, 'the job runner did not stop cleanly'),
      );
      await closePools();
    },
  };
}
