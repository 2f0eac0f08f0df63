/**
 * Writes to the content tree (creating, moving, restoring, duplicating, transferring) lock every
 * parent they touch — a transaction-scoped advisory lock per parent (a collection, or an
 * organization's root), taken in a fixed order so that two moves in opposite directions cannot
 * deadlock. Sibling positions are read and written under those locks: concurrent writers take
 * turns, and positions stay unique. The transaction itself is a guarded write
 * (access/guarded-write.ts), which takes these locks after its access check.
 */
import type { Prisma } from '../../../generated/prisma/client.js';

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
