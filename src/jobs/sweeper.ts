/**
 * Jobs whose worker died (killed, crashed, cut off from the database) stay `running` with a
 * heartbeat that no longer moves, and their queue entry stays locked by the dead worker. Every
 * worker looks for them: each is put back in the queue (its queue lock released) to be run again,
 * or, once it has been started QUIRE_JOB_MAX_ATTEMPTS times, fails with `JOB_STOPPED` and a reason
 * its user can read (attempts.ts) — a job whose run kills its worker is not run forever. A worker
 * that was only slow finds its job taken over, and its final transaction refuses to commit (runner.ts).
 */
import { Prisma } from '../generated/prisma/client.js';
import type { Db } from '../db/client.js';
import { recordJobsFinished } from '../domain/work/jobs/finished.js';
import { jobEvent, type JobRow } from '../domain/work/jobs/rows.js';
import type { EventBus } from '../events/bus.js';
import { DEFAULT_JOB_LIMITS, JOB_STOPPED, stoppedReason, type JobLimits } from './attempts.js';
import { afterGivenUp } from './given-up.js';

const { sql } = Prisma;

/** Takes back the jobs whose heartbeat is older than `staleMs`; answers them. */
export async function recoverLostJobs(db: Db, events: EventBus, staleMs: number, limits: JobLimits = DEFAULT_JOB_LIMITS): Promise<JobRow[]> {
  // One transaction, so one `now()`: a job whose heartbeat turned stale between two statements
  // would otherwise miss the first (failed at its last attempt) and be requeued by the second,
  // and run once more than QUIRE_JOB_MAX_ATTEMPTS allows. The requeue names its bound as well.
  const stale = sql`"state" = 'running' AND "heartbeatAt" < now() - ${staleMs} * interval '1 millisecond'`;
  const { failed, requeued } = await db.$transaction(async (tx) => {
    const failed = await tx.$queryRaw<JobRow[]>`
      UPDATE "Job" SET "state" = 'failed', "errorCode" = ${JOB_STOPPED}, "errorMessage" = ${stoppedReason(limits.jobMaxAttempts, limits)},
        "message" = 'Failed', "finishedAt" = now(), "secret" = NULL, "version" = "version" + 1, "updatedAt" = now()
      WHERE ${stale} AND "attempts" >= ${limits.jobMaxAttempts} RETURNING *`;
    await recordJobsFinished(tx, failed);
    const requeued = await tx.$queryRaw<JobRow[]>`
      UPDATE "Job" SET "state" = 'queued', "message" = 'The worker running it stopped; it will be run again', "version" = "version" + 1, "updatedAt" = now()
      WHERE ${stale} AND "attempts" < ${limits.jobMaxAttempts} RETURNING *`;
    return { failed, requeued };
  });
  const lost = [...failed, ...requeued];
  const workers = [...new Set(lost.map((job) => job.workerId).filter((id): id is string => !!id))];
  if (workers.length) await db.$executeRaw`SELECT graphile_worker.force_unlock_workers(${workers}::text[])`;
  for (const job of failed) await db.$executeRaw`SELECT graphile_worker.remove_job(${job.id}::text)`;
  for (const job of failed) await afterGivenUp(db, job);
  for (const job of lost) events.publishJob(jobEvent(job));
  return lost;
}
