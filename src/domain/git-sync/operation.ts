/**
 * What an import or export needs while it runs (built by the job handler, jobs/handlers/git-sync.ts)
 * and how it ends: the sync's state and its `spaceGitSyncCompleted` event, written in the
 * operation's final transaction with the job's own completion.
 */
import type { GitSync, Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../db/client.js';
import type { GitRepository } from '../../lib/git/repository.js';
import { recordEvents } from '../kernel/outbox.js';
import type { BlobStore } from '../versions/files/blob-store.js';
import type { GitDirection } from './input.js';
import type { GitJobInput } from './start.js';

export type GitOperation = {
  db: Db;
  jobId: string;
  spaceId: string;
  organizationId: string;
  /** Who asked for it (the job's creator). */
  actorId: string | null;
  input: GitJobInput;
  repo: GitRepository;
  store: BlobStore;
  signal: AbortSignal;
  /** How long the operation may run (its signal aborts then): its import transaction's timeout too. */
  timeLimitMs: number;
  progress(done: number, total: number | null, message: string): void;
  /** Marks the job succeeded with `result`, inside the final transaction. */
  complete(tx: Prisma.TransactionClient, result: Prisma.InputJsonObject): Promise<void>;
  /** The bot identity that commits (QUIRE_GIT_COMMITTER_NAME / _EMAIL). */
  committer: { name: string; email: string };
};

export type OperationEnd = {
  state: 'success' | 'failure' | 'timeout';
  error?: string | null;
  /** A failure's stable reason (its job's error code). */
  errorCode?: string | null;
  commitId?: string | null;
  revisionId?: string | null;
  changeRequestId?: string | null;
};

/** The sync row, locked for the final transaction. */
export async function lockSync(tx: Prisma.TransactionClient, spaceId: string): Promise<GitSync | null> {
  const [row] = await tx.$queryRaw<GitSync[]>`SELECT * FROM "GitSync" WHERE "spaceId" = ${spaceId} FOR UPDATE`;
  return row ?? null;
}

/**
 * Records how the operation ended — only when it is still the sync's latest (a later request may
 * have replaced it) — and tells the space's readers.
 */
export async function endOperation(tx: Prisma.TransactionClient, op: Pick<GitOperation, 'jobId' | 'spaceId' | 'organizationId' | 'actorId'>, direction: GitDirection, end: OperationEnd): Promise<void> {
  await tx.$executeRaw`UPDATE "GitSync" SET "operationState" = ${end.state}, "operationEndedAt" = now(), "operationError" = ${end.error ?? null}, "operationErrorCode" = ${end.errorCode ?? null}, "updatedAt" = now()
    WHERE "spaceId" = ${op.spaceId} AND "operationJobId" = ${op.jobId}`;
  await recordEvents(tx, {
    kind: 'spaceGitSyncCompleted',
    organizationId: op.organizationId,
    subjectId: op.spaceId,
    spaceId: op.spaceId,
    actorId: op.actorId,
    data: {
      direction,
      state: end.state,
      jobId: op.jobId,
      ...(end.commitId ? { commitId: end.commitId } : {}),
      ...(end.revisionId ? { revisionId: end.revisionId } : {}),
      ...(end.changeRequestId ? { changeRequestId: end.changeRequestId } : {}),
    },
  });
}

/** An operation that writes no content (nothing to do, or a conflict already parked): its end and the job's, in one transaction. */
export function endWithoutContent(op: Pick<GitOperation, 'db' | 'jobId' | 'spaceId' | 'organizationId' | 'actorId' | 'complete'>, direction: GitDirection, end: OperationEnd, result: Prisma.InputJsonObject): Promise<void> {
  return op.db.$transaction(async (tx) => {
    await endOperation(tx, op, direction, end);
    await op.complete(tx, result);
  });
}

/** A failed operation's end, in a transaction of its own (the operation's own was rolled back). */
export function recordFailure(db: Db, op: Pick<GitOperation, 'jobId' | 'spaceId' | 'organizationId' | 'actorId'>, direction: GitDirection, state: 'failure' | 'timeout', error: string, errorCode: string | null): Promise<void> {
  return db.$transaction((tx) => endOperation(tx, op, direction, { state, error, errorCode }));
}

/** The URL of a commit for people (`repoCommitURL` + oid), when the request gave the prefix. */
export const commitUrlOf = (input: Pick<GitJobInput, 'repoCommitURL'>, oid: string): string | undefined =>
  input.repoCommitURL ? `${input.repoCommitURL.replace(/\/+$/, '')}/${oid}` : undefined;
