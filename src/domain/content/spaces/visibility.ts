/**
 * `in-collection` visibility means "as the parent collection says": a space without a parent
 * cannot have it, and becomes `private` when it lands at the root (moved, transferred, restored
 * without its collection, or left behind by a deleted or transferred collection).
 */
import type { Prisma, SpaceVisibility } from '../../../generated/prisma/client.js';

/** The visibility a space keeps under `parentId`. */
export function visibilityUnder(parentId: string | null, visibility: SpaceVisibility): SpaceVisibility {
  return !parentId && visibility === 'in_collection' ? 'private' : visibility;
}

/** Takes the spaces matching `where` out of their collections, to the root, by the same rule. */
export async function detachToRoot(tx: Prisma.TransactionClient, where: Prisma.SpaceWhereInput): Promise<void> {
  await tx.space.updateMany({ where: { ...where, visibility: 'in_collection' }, data: { parentId: null, visibility: visibilityUnder(null, 'in_collection') } });
  await tx.space.updateMany({ where, data: { parentId: null } });
}
