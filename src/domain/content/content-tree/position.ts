/**
 * Ordering of the content tree. Spaces and collections under the same parent (a collection, or
 * the organization's root) share one ordering (content-tree/order.ts): integer positions with room
 * between them, so that placing an item moves no other.
 *
 * Lists of siblings page on (position, ID) keys (pagination/keyset.ts). Were siblings renumbered
 * when one left or moved, a page's cursor would point into a shifted list, and a client paging
 * through it would skip or repeat items. So an item leaving leaves a gap; an item is appended
 * GAP after the last; an item placed between two takes the middle of their gap. Only when a gap
 * is used up (about ten placements at the same spot) are the parent's children spaced out again,
 * the one write that moves other items (and reads them all). The input, `{before | after}` a
 * sibling, is the same for every ordered list (kernel/position.ts).
 */
import { Prisma } from '../../../generated/prisma/client.js';
import { badRequest } from '../../../lib/errors.js';
import { anchorOf, type Position } from '../../kernel/position.js';
import { lockParents } from './transaction.js';

type Tx = Prisma.TransactionClient;
const { sql, empty } = Prisma;


type Sibling = { kind: 'space' | 'collection'; id: string };
type Placed = Sibling & { position: number };

/** The room left after an appended item, and between siblings when they are spaced out again. */
export const GAP = 1024;
/** Positions are int4, encoded big-endian into Collection.treeKey: never negative. */
const MAX_POSITION = 2 ** 31 - 1;

/**
 * The live spaces and the collections directly in the parent, other than `except`, in sibling
 * order; `seek` narrows them (e.g. to those after a sibling), `limit` takes the first ones.
 */
function siblings(tx: Tx, organizationId: string, parentId: string | null, except: string, opts: { seek?: Prisma.Sql; descending?: boolean; limit?: number } = {}): Promise<Placed[]> {
  const inParent = parentId === null ? sql`"parentId" IS NULL` : sql`"parentId" = ${parentId}`;
  const direction = opts.descending ? sql`DESC` : sql`ASC`;
  return tx.$queryRaw<Placed[]>`
    SELECT * FROM (
      SELECT 'space' AS kind, "id", "position" FROM "Space" WHERE "organizationId" = ${organizationId} AND ${inParent} AND "deletedAt" IS NULL AND "id" <> ${except}
      UNION ALL
      SELECT 'collection' AS kind, "id", "position" FROM "Collection" WHERE "organizationId" = ${organizationId} AND ${inParent} AND "id" <> ${except}
    ) x ${opts.seek ? sql`WHERE ${opts.seek}` : empty}
    ORDER BY x."position" ${direction}, x."id" ${direction} ${opts.limit ? sql`LIMIT ${opts.limit}` : empty}`;
}

/** The position for an item appended at the end of its parent (locked until the transaction ends). */
export async function nextPosition(tx: Tx, organizationId: string, parentId: string | null, except = ''): Promise<number> {
  await lockParents(tx, [{ organizationId, collectionId: parentId }]);
  const [last] = await siblings(tx, organizationId, parentId, except, { descending: true, limit: 1 });
  return last ? last.position + GAP : 0;
}

/**
 * Places `item` among the children of `parentId`: before or after a sibling, or at the end when
 * no position is given. The item must already have `parentId`.
 */
export async function placeItem(tx: Tx, organizationId: string, parentId: string | null, item: Sibling, position?: Position): Promise<void> {
  const at = anchorOf(position);
  if (!at) {
    const last = await nextPosition(tx, organizationId, parentId, item.id);
    if (last <= MAX_POSITION) return writePosition(tx, item, last);
    return spaceOut(tx, organizationId, parentId, item, null, 'after');
  }
  await lockParents(tx, [{ organizationId, collectionId: parentId }]);
  const { side, field } = at;
  const [anchor] = await siblings(tx, organizationId, parentId, item.id, { seek: sql`x."id" = ${at.id}` });
  if (!anchor) throw badRequest(`Invalid value for "${field}": it must name a sibling in the target parent`, field);
  // The sibling on the other side of the anchor bounds the gap the item goes into.
  const beyond = side === 'before' ? sql`(x."position", x."id") < (${anchor.position}, ${anchor.id})` : sql`(x."position", x."id") > (${anchor.position}, ${anchor.id})`;
  const [neighbour] = await siblings(tx, organizationId, parentId, item.id, { seek: beyond, descending: side === 'before', limit: 1 });
  const [low, high] = side === 'before' ? [neighbour?.position ?? -1, anchor.position] : [anchor.position, neighbour?.position ?? anchor.position + 2 * GAP];
  if (high - low >= 2 && high <= MAX_POSITION) return writePosition(tx, item, low + Math.floor((high - low) / 2));
  await spaceOut(tx, organizationId, parentId, item, anchor, side);
}

async function writePosition(tx: Tx, item: Sibling, position: number): Promise<void> {
  if (item.kind === 'space') await tx.space.update({ where: { id: item.id }, data: { position } });
  else await tx.collection.update({ where: { id: item.id }, data: { position } });
}

/** Writes every child of the parent again, GAP apart, with `item` placed beside `anchor` (or last). */
async function spaceOut(tx: Tx, organizationId: string, parentId: string | null, item: Sibling, anchor: Placed | null, side: 'before' | 'after'): Promise<void> {
  const ordered: Sibling[] = await siblings(tx, organizationId, parentId, item.id);
  const at = anchor ? ordered.findIndex((s) => s.id === anchor.id) : ordered.length - 1;
  ordered.splice(side === 'before' ? at : at + 1, 0, item);
  for (const [i, sibling] of ordered.entries()) await writePosition(tx, sibling, i * GAP);
}
