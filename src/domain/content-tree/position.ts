/**
 * Ordering of the content tree. Spaces and collections under the same parent (a collection, or
 * the organization's root) share one ordering, stored as dense integer positions.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import { badRequest } from '../errors.js';
import { LIVE } from '../spaces/lifecycle.js';
import { compareSiblings } from './order.js';
import { lockParents } from './transaction.js';

type Tx = Prisma.TransactionClient;

/** Before or after a sibling, by ID (a space or a collection). */
export type Position = { before?: string | null; after?: string | null };

type Sibling = { kind: 'space' | 'collection'; id: string };
type Placed = Sibling & { position?: number };

async function siblings(tx: Tx, organizationId: string, parentId: string | null): Promise<Placed[]> {
  const [spaces, collections] = await Promise.all([
    tx.space.findMany({ where: { organizationId, parentId, ...LIVE }, select: { id: true, position: true } }),
    tx.collection.findMany({ where: { organizationId, parentId }, select: { id: true, position: true } }),
  ]);
  return [
    ...spaces.map((s) => ({ kind: 'space' as const, ...s })),
    ...collections.map((c) => ({ kind: 'collection' as const, ...c })),
  ]
    .sort(compareSiblings);
}

/** The position for a new item appended at the end of its parent (locked until the transaction ends). */
export async function nextPosition(tx: Tx, organizationId: string, parentId: string | null): Promise<number> {
  await lockParents(tx, [{ organizationId, collectionId: parentId }]);
  const where = { organizationId, parentId };
  const [space, collection] = await Promise.all([
    tx.space.aggregate({ where: { ...where, ...LIVE }, _max: { position: true } }),
    tx.collection.aggregate({ where, _max: { position: true } }),
  ]);
  return Math.max(space._max.position ?? -1, collection._max.position ?? -1) + 1;
}

/**
 * Places `item` among the children of `parentId`: before or after a sibling, or at the end when
 * no position is given; then renumbers the siblings. The item must already have `parentId`.
 */
export async function placeItem(tx: Tx, organizationId: string, parentId: string | null, item: Sibling, position?: Position): Promise<void> {
  await lockParents(tx, [{ organizationId, collectionId: parentId }]);
  const others = (await siblings(tx, organizationId, parentId)).filter((s) => !(s.id === item.id && s.kind === item.kind));
  const anchor = position?.before ?? position?.after;
  let index = others.length;
  if (position?.before && position?.after) throw badRequest('Give either "position.before" or "position.after", not both', 'position');
  if (anchor) {
    const field = position?.before ? 'position.before' : 'position.after';
    const at = others.findIndex((s) => s.id === anchor);
    if (at < 0) throw badRequest(`Invalid value for "${field}": it must name a sibling in the target parent`, field);
    index = position?.before ? at : at + 1;
  }
  others.splice(index, 0, item);
  await writePositions(tx, others);
}

/** Positions 0…n-1 in the given order, writing only those that change. */
async function writePositions(tx: Tx, ordered: Placed[]): Promise<void> {
  for (const [i, s] of ordered.entries()) {
    if (s.position === i) continue;
    if (s.kind === 'space') await tx.space.update({ where: { id: s.id }, data: { position: i } });
    else await tx.collection.update({ where: { id: s.id }, data: { position: i } });
  }
}

/** Renumbers a parent's children densely, in their current order (after one of them left). */
export async function closeGap(tx: Tx, organizationId: string, parentId: string | null): Promise<void> {
  await lockParents(tx, [{ organizationId, collectionId: parentId }]);
  await writePositions(tx, await siblings(tx, organizationId, parentId));
}
