/**
 * Background jobs on graphile-worker (a Postgres-backed queue in the same database): an explicit
 * task registry and cron schedule. Every job of the API (imports, space copies and purges) runs
 * through one task, `run_job` (runner.ts); the sweeper takes back jobs of workers that died.
 * Webhook deliveries run beside them on a runner of their own (webhooks/runner.ts).
 */
import { Logger, parseCronItems, run, type TaskList } from 'graphile-worker';
import type { JobKind } from '../generated/prisma/client.js';
import { RUN_JOB_TASK } from '../domain/work/jobs/enqueue.js';
import { createMailer } from '../domain/people/mail/index.js';
import { schedulePurges } from '../domain/content/spaces/trash.js';
import { MENTION_MAIL_TASK } from '../domain/comments/mentions.js';
import { checkPendingClaims } from '../domain/publishing/hostnames/custom-hostnames.js';
import { runGitSync } from './handlers/git-sync.js';
import { runImport } from './handlers/import.js';
import { sendMentionMail } from './handlers/mention-mail.js';
import { runOpenAPIProcess } from './handlers/openapi.js';
import { runSpaceDuplicate, runSpacePurge } from './handlers/space-jobs.js';
import { runJob, type JobHandler, type JobServices } from './runner.js';
import { FILE_GC_TASK, fileGcTask, scheduleFileGc } from './file-gc.js';
import { createQueuePool } from './queue-pool.js';
import { recoverLostJobs } from './sweeper.js';
import { startWebhookRunner } from './webhooks/runner.js';

export const JOB_HANDLERS: Record<JobKind, JobHandler> = {
  import: runImport,
  space_duplicate: runSpaceDuplicate,
  space_purge: runSpacePurge,
  openapi_process: runOpenAPIProcess,
  git_import: runGitSync,
  git_export: runGitSync,
};

export function taskList(services: JobServices): TaskList {
  return {
    [RUN_JOB_TASK]: async (payload, helpers) => {
      const jobId = (payload as { jobId?: unknown } | null)?.jobId;
      if (typeof jobId !== 'string') return helpers.logger.error(`run_job without a job ID: ${JSON.stringify(payload)}`);
      await runJob(services, JOB_HANDLERS, jobId, helpers);
    },
    /** Queues a purge job for each space whose 7-day trash period has passed. */
    purge_deleted_spaces: async () => {
      const count = await schedulePurges(services.db);
      if (count) services.logger.info({ count }, 'queued purges of deleted spaces');
    },
    [MENTION_MAIL_TASK]: sendMentionMail(services),
    [FILE_GC_TASK]: fileGcTask(services),
    /** Checks the DNS records of custom hostname claims not proven yet (custom-hostnames.ts). */
    check_custom_hostnames: async () => {
      const proven = await checkPendingClaims(services.db, { servers: services.config.dnsServers });
      if (proven) services.logger.info({ proven }, 'verified custom hostnames');
    },
  };
}

const CRON = [
  { task: 'purge_deleted_spaces', match: '7 * * * *', options: { backfillPeriod: 0 } },
  { task: 'check_custom_hostnames', match: '*/5 * * * *', options: { backfillPeriod: 0 } },
];

/** Jobs run at once per worker process (imports, copies, git sync, OpenAPI processing, mail). */
const JOB_CONCURRENCY = 2;

export type Worker = { stop(): Promise<void>; promise: Promise<void> };

export async function startWorker(url: string, given: JobServices): Promise<Worker> {
  const { logger, config } = given;
  const mailer = given.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.smtpFrom, logger });
  const services: JobServices = { ...given, mailer };
  const workerLogger = new Logger(() => (level, message) => {
    if (level === 'error') logger.error({ component: 'graphile-worker' }, message);
    else if (level === 'warning') logger.warn({ component: 'graphile-worker' }, message);
  });
  // A runner's connections: one per task in flight, its LISTEN connection, and its cron's.
  const jobsPool = createQueuePool(url, JOB_CONCURRENCY + 3, logger, 'graphile-worker');
  const webhooksPool = createQueuePool(url, config.webhooks.concurrency + 3, logger, 'webhooks');
  const runner = await run({
    pgPool: jobsPool.pool,
    concurrency: JOB_CONCURRENCY,
    noHandleSignals: true,
    pollInterval: 2000,
    logger: workerLogger,
    taskList: taskList(services),
    parsedCronItems: parseCronItems(CRON),
  });
  await scheduleFileGc(runner.addJob, (key) => jobsPool.pool.query('SELECT graphile_worker.remove_job($1)', [key]), config.fileGcIntervalMs);
  const webhooks = await startWebhookRunner(webhooksPool.pool, services, workerLogger);
  const staleMs = services.config.jobStaleMs;
  const sweep = () =>
    recoverLostJobs(services.db, services.events, staleMs, services.config)
      .then((lost) => lost.length && logger.warn({ jobs: lost.map((j) => j.id) }, 'took back jobs whose worker stopped'))
      .catch((error: Error) => logger.warn({ err: { message: error.message } }, 'looking for lost jobs failed'));
  void sweep();
  const sweeper = setInterval(sweep, Math.max(500, staleMs / 2));
  return {
    promise: Promise.all([runner.promise, webhooks.promise]).then(() => undefined),
    async stop() {
      clearInterval(sweeper);
      await Promise.all([runner.stop(), webhooks.stop()]);
      await Promise.all([jobsPool.close(), webhooksPool.close()]);
      if (!given.mailer) await mailer.close();
    },
  };
}
