/**
 * How often a job may be stopped before it is given up. A run that kills or freezes its worker
 * (out of memory, a blocked event loop) would otherwise be taken back and run again forever:
 * every run counts as an attempt from the moment it is claimed (runner.ts), a run stopped by
 * its time budget or by its worker's death uses its attempt, and after `maxAttempts` the job
 * ends `failed` with JOB_STOPPED and a reason its user can read.
 */
import { JOB_LIMIT_DEFAULTS, type Config } from '../config.js';

export type JobLimits = Pick<Config, 'jobMaxAttempts' | 'jobTimeBudgetMs'>;

export const DEFAULT_JOB_LIMITS: JobLimits = { jobMaxAttempts: JOB_LIMIT_DEFAULTS.maxAttempts, jobTimeBudgetMs: JOB_LIMIT_DEFAULTS.timeBudgetSeconds * 1000 };

/** The reason code of a job given up after being stopped too many times. */
export const JOB_STOPPED = 'JOB_STOPPED';

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** Why one run was stopped by its time budget (the job's message while it waits to run again). */
export const overBudget = (limits: JobLimits) => `The run took longer than the time budget of ${seconds(limits.jobTimeBudgetMs)}`;

/** Why the job failed for good, for its user. */
export const stoppedReason = (times: number, limits: JobLimits) =>
  `The job was stopped ${times} time${times === 1 ? '' : 's'}: its worker stopped responding or ran past the time budget of ${seconds(limits.jobTimeBudgetMs)}`;
