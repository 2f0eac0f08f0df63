/**
 * Jobs whose worker died (killed, crashed, cut off from the database) stay `running` with a
 * heartbeat that no longer moves, and their queue entry stays locked by the dead worker. Every
 * worker looks for them: each is put back in the queue (its queue lock released) to be run again,
 * or fails with `WORKER_LOST` once it has been started MAX_ATTEMPTS times. A worker that was only
 * slow finds its job taken over, and its final transaction refuses to commit (runner.ts).
 */
import { Prisma } from '../generated/prisma/client.js';
import type { Db } from '../db/client.js';
import { MAX_ATTEMPTS } from '../domain/jobs/enqueue.js';
import { jobEvent, type JobRow } from '../domain/jobs/rows.js';
import type { EventBus } from '../events/bus.js';

const { sql } = Prisma;

/** Takes back the jobs whose heartbeat is older than `staleMs`; answers them. */
export async function recoverLostJobs(db: Db, events: EventBus, staleMs: number): Promise<JobRow[]> {
  const stale = sql`"state" = 'running' AND "heartbeatAt" < now() - ${staleMs} * interval '1 millisecond'`;
  const failed = await db.$queryRaw<JobRow[]>`
    UPDATE "Job" SET "state" = 'failed', "errorCode" = 'WORKER_LOST', "errorMessage" = 'The worker running the job stopped, too many times',
      "message" = 'Failed', "finishedAt" = now(), "version" = "version" + 1, "updatedAt" = now()
    WHERE ${stale} AND "attempts" >= ${MAX_ATTEMPTS} RETURNING *`;
  const requeued = await db.$queryRaw<JobRow[]>`
    UPDATE "Job" SET "state" = 'queued', "message" = 'The worker running it stopped; it will be run again', "version" = "version" + 1, "updatedAt" = now()
    WHERE ${stale} RETURNING *`;
  const lost = [...failed, ...requeued];
  const workers = [...new Set(lost.map((job) => job.workerId).filter((id): id is string => !!id))];
  if (workers.length) await db.$executeRaw`SELECT graphile_worker.force_unlock_workers(${workers}::text[])`;
  for (const job of failed) await db.$executeRaw`SELECT graphile_worker.remove_job(${job.id}::text)`;
  for (const job of lost) events.publishJob(jobEvent(job));
  return lost;
}
