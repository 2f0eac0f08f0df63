/**
 * What the job runner runs: every job of the API (imports, space copies and purges, OpenAPI
 * processing, git sync) through one task, `run_job` (runner.ts), the mention mails, and the
 * recurring tasks (recurring.ts) with their schedules.
 */
import type { TaskList } from 'graphile-worker';
import type { Config } from '../config.js';
import type { JobKind } from '../generated/prisma/client.js';
import { RUN_JOB_TASK } from '../domain/work/jobs/enqueue.js';
import { schedulePurges } from '../domain/content/spaces/trash.js';
import { MENTION_MAIL_TASK } from '../domain/comments/mentions.js';
import { checkPendingClaims } from '../domain/publishing/hostnames/custom-hostnames.js';
import { runGitSync } from './handlers/git-sync.js';
import { runImport } from './handlers/import.js';
import { sendMentionMail } from './handlers/mention-mail.js';
import { runOpenAPIProcess } from './handlers/openapi.js';
import { runSpaceDuplicate, runSpacePurge } from './handlers/space-jobs.js';
import { runJob, type JobHandler, type JobServices } from './runner.js';
import { FILE_GC_TASK, fileGcSchedule, fileGcTask } from './file-gc.js';
import { recurringTask, type Recurring } from './recurring.js';

export const JOB_HANDLERS: Record<JobKind, JobHandler> = {
  import: runImport,
  space_duplicate: runSpaceDuplicate,
  space_purge: runSpacePurge,
  openapi_process: runOpenAPIProcess,
  git_import: runGitSync,
  git_export: runGitSync,
};

/** Queues a purge job for each space whose 7-day trash period has passed: hourly. */
const PURGES: Recurring = { task: 'purge_deleted_spaces', everyMs: 3600_000, firstDelayMs: 300_000 };
/** Checks the DNS records of custom hostname claims not proven yet (custom-hostnames.ts): every 5 minutes. */
const HOSTNAME_CHECKS: Recurring = { task: 'check_custom_hostnames', everyMs: 300_000, firstDelayMs: 60_000 };

/** The recurring tasks of the jobs' runner, as each runner start schedules them. */
export const recurringJobs = (config: Pick<Config, 'fileGcIntervalMs'>): Recurring[] => [fileGcSchedule(config), PURGES, HOSTNAME_CHECKS];

export function taskList(services: JobServices): TaskList {
  return {
    [RUN_JOB_TASK]: async (payload, helpers) => {
      const jobId = (payload as { jobId?: unknown } | null)?.jobId;
      if (typeof jobId !== 'string') return helpers.logger.error(`run_job without a job ID: ${JSON.stringify(payload)}`);
      await runJob(services, JOB_HANDLERS, jobId, helpers);
    },
    [PURGES.task]: recurringTask(PURGES, async () => {
      const count = await schedulePurges(services.db);
      if (count) services.logger.info({ count }, 'queued purges of deleted spaces');
    }),
    [MENTION_MAIL_TASK]: sendMentionMail(services),
    [FILE_GC_TASK]: fileGcTask(services),
    [HOSTNAME_CHECKS.task]: recurringTask(HOSTNAME_CHECKS, async () => {
      const proven = await checkPendingClaims(services.db, { servers: services.config.dnsServers });
      if (proven) services.logger.info({ proven }, 'verified custom hostnames');
    }),
  };
}
