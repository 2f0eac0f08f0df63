/**
 * Starting a job: its row and its queue entry (graphile-worker's `add_job`, in the same database)
 * are written in the caller's transaction, so the queue holds the job exactly when the write that
 * asked for it commits — a rolled-back request leaves no job, and a committed one is never lost.
 * The queue entry carries the job's ID only; the row holds the rest.
 */
import type { JobKind, Prisma } from '../../../generated/prisma/client.js';
import { newId } from '../../kernel/ids.js';
import type { JobRow } from './rows.js';

/** The graphile-worker task that runs every job (jobs/runner.ts). */
export const RUN_JOB_TASK = 'run_job';

/**
 * The queue entry's own retry bound. The runner decides when a job has run enough
 * (QUIRE_JOB_MAX_ATTEMPTS, counted on the job's row, jobs/attempts.ts) and then ends it without
 * asking for another run; this only has to be above that setting's largest value, and bounds the
 * runs that fail before they could claim their job (the database unreachable).
 */
const QUEUE_MAX_ATTEMPTS = 25;

export type JobSpec = {
  kind: JobKind;
  organizationId: string;
  spaceId?: string | null;
  changeRequestId?: string | null;
  /** IDs and settings only. */
  input?: Prisma.InputJsonObject;
  /** Null for jobs the server starts itself. */
  createdById: string | null;
  message?: string;
  /** What the job needs but nobody may read back (sealed: git-sync/credentials.ts), erased when it ends. */
  secret?: string | null;
  /**
   * Jobs of one queue run one at a time, in the order queued (graphile-worker's named queues):
   * the git operations of a space share one.
   */
  queueName?: string;
};

export async function enqueueJob(tx: Prisma.TransactionClient, spec: JobSpec): Promise<JobRow> {
  const id = newId('Job');
  const job = await tx.job.create({
    data: {
      id,
      kind: spec.kind,
      organizationId: spec.organizationId,
      spaceId: spec.spaceId ?? null,
      changeRequestId: spec.changeRequestId ?? null,
      input: spec.input ?? {},
      createdById: spec.createdById,
      secret: spec.secret ?? null,
      message: spec.message ?? 'Waiting for a worker',
    },
  });
  // The job's ID is the queue entry's key: removing it (cancel) finds it without a scan.
  await tx.$executeRaw`SELECT graphile_worker.add_job(${RUN_JOB_TASK}::text, json_build_object('jobId', ${id}::text), queue_name := ${spec.queueName ?? null}::text, max_attempts := ${QUEUE_MAX_ATTEMPTS}::int, job_key := ${id}::text)`;
  return job;
}
