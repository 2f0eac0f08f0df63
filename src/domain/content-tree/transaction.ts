/**
 * Writes to the content tree (creating, moving, restoring, duplicating, transferring) run in one
 * transaction that first locks every parent it touches — a transaction-scoped advisory lock per
 * parent (a collection, or an organization's root), taken in a fixed order so that two moves in
 * opposite directions cannot deadlock. Sibling positions are read and written under those locks:
 * concurrent writers take turns, and positions stay unique and dense. A transaction PostgreSQL
 * still aborts (a deadlock elsewhere, a serialization failure, no connection in time) is retried;
 * one that keeps failing is a 409 asking to try again, never a 500.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../../db/client.js';
import { conflict } from '../errors.js';

type Tx = Prisma.TransactionClient;

/** A parent in the tree: a collection, or the root of an organization (`collectionId` null). */
export type TreeParent = { organizationId: string; collectionId: string | null };

const lockKey = (p: TreeParent) => (p.collectionId ? `tree:${p.collectionId}` : `tree-root:${p.organizationId}`);

/** Locks the parents (each once, in key order) until the transaction ends. Reentrant. */
export async function lockParents(tx: Tx, parents: readonly TreeParent[]): Promise<void> {
  for (const key of [...new Set(parents.map(lockKey))].sort()) {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`;
  }
}

const ATTEMPTS = 4;

/** Aborted by PostgreSQL for reasons another attempt may not meet: deadlock, serialization, start timeout. */
function isTransient(error: unknown): boolean {
  const e = error as { code?: string; meta?: { code?: string; driverAdapterError?: { cause?: { originalCode?: string; code?: string } } } };
  const state = e.meta?.driverAdapterError?.cause?.originalCode ?? e.meta?.driverAdapterError?.cause?.code ?? e.meta?.code;
  return e.code === 'P2034' || e.code === 'P2028' || state === '40001' || state === '40P01';
}

export async function treeTransaction<T>(db: Db, parents: readonly TreeParent[], work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      // Writers of one parent queue on its lock: the wait counts towards the timeout.
      return await db.$transaction(
        async (tx) => {
          await lockParents(tx, parents);
          return work(tx);
        },
        { maxWait: 10_000, timeout: 30_000 },
      );
    } catch (error) {
      if (!isTransient(error)) throw error;
      if (attempt === ATTEMPTS) throw conflict('The content tree is being changed by another request; try again');
      await sleep(20 * attempt + Math.random() * 50);
    }
  }
}
