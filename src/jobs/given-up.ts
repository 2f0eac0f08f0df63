/**
 * What a job kind leaves behind when its job fails for good outside its handler — stopped too
 * many times (its worker died or froze, or it ran past its time budget: JOB_STOPPED) or ended by
 * internal errors — so that the object it works on does not say "in progress" forever. An
 * explicit registry, called by the runner and by the sweeper once the job row says `failed`.
 */
import type { JobKind } from '../generated/prisma/client.js';
import type { Db } from '../db/client.js';
import type { JobRow } from '../domain/work/jobs/rows.js';
import type { Logger } from '../observability/logger.js';
import { openAPIProcessGivenUp } from './handlers/openapi.js';

export type GivenUp = (db: Db, job: JobRow) => Promise<void>;

const GIVEN_UP: Partial<Record<JobKind, GivenUp>> = {
  openapi_process: openAPIProcessGivenUp,
};

/** Runs the kind's clean-up for a job that failed for good; a failure of it is logged, never thrown. */
export async function afterGivenUp(db: Db, job: JobRow, logger?: Pick<Logger, 'warn'>): Promise<void> {
  await GIVEN_UP[job.kind]?.(db, job).catch((error: Error) => logger?.warn({ err: { message: error.message }, jobId: job.id }, 'clean-up after a failed job failed'));
}
