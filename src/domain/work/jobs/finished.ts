/**
 * `jobFinished`: recorded in the transaction that ends a job — its runner's last write, a
 * cancellation, the sweeper giving it up — so an event exists exactly when the job ended, and
 * subscribers and webhooks learn of it (`data: {kind, state}`; its space, when it has one).
 */
import type { Prisma } from '../../../generated/prisma/client.js';
import { recordEvents } from '../../kernel/outbox.js';
import { isFinished, type JobRow } from './rows.js';

/** Records `jobFinished` for those of `jobs` that ended (others are left alone). */
export async function recordJobsFinished(tx: Prisma.TransactionClient, jobs: readonly (JobRow | undefined)[]): Promise<void> {
  const ended = jobs.filter((job): job is JobRow => !!job && isFinished(job.state));
  await recordEvents(
    tx,
    ended.map((job) => ({
      kind: 'jobFinished' as const,
      organizationId: job.organizationId,
      subjectId: job.id,
      spaceId: job.spaceId,
      actorId: job.createdById,
      data: { kind: job.kind, state: job.state },
    })),
  );
}
