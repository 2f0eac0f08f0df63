/**
 * Cancelling a job. A queued one ends at once (its queue entry removed); a running one is asked to
 * stop — its runner sees the request within a heartbeat, aborts, and writes nothing (the final
 * transaction of a handler refuses to commit once cancellation is asked, see runner.ts).
 */
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { conflict } from '../../../lib/errors.js';
import { recordJobsFinished } from './finished.js';
import { isFinished, type JobRow } from './rows.js';
import { transactionFrom } from '../../kernel/request-origin.js';

export async function cancelJob(db: Db, access: Access, id: string): Promise<JobRow> {
  return transactionFrom(db, access.from, async (tx) => {
    const [locked] = await tx.$queryRaw<JobRow[]>`SELECT * FROM "Job" WHERE "id" = ${id} FOR UPDATE`;
    const job = await access.requireJob(locked ?? null, 'cancel');
    if (isFinished(job.state)) throw conflict(`The job has already ${job.state === 'cancelled' ? 'been cancelled' : job.state}`);
    if (job.state === 'queued') {
      await tx.$executeRaw`SELECT graphile_worker.remove_job(${id}::text)`;
      const cancelled = await tx.job.update({ where: { id }, data: { state: 'cancelled', cancelRequested: true, finishedAt: new Date(), secret: null, message: 'Cancelled', errorCode: 'CANCELLED', version: { increment: 1 } } });
      await recordJobsFinished(tx, [cancelled]);
      return cancelled;
    }
    if (job.cancelRequested) return job;
    return tx.job.update({ where: { id }, data: { cancelRequested: true, message: 'Cancelling', version: { increment: 1 } } });
  });
}
