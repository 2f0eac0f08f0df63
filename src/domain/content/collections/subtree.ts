/** A collection and everything nested under it, computed from one query over the organization. */
import type { Prisma } from '../../../generated/prisma/client.js';

type Tx = Prisma.TransactionClient;

/** IDs of `rootId` and all its descendant collections (root first). */
export async function collectionSubtree(tx: Tx, organizationId: string, rootId: string): Promise<string[]> {
  const rows = await tx.collection.findMany({ where: { organizationId }, select: { id: true, parentId: true } });
  const children = new Map<string, string[]>();
  for (const r of rows) if (r.parentId) children.set(r.parentId, [...(children.get(r.parentId) ?? []), r.id]);
  const ids = [rootId];
  for (let i = 0; i < ids.length; i++) for (const child of children.get(ids[i]) ?? []) if (!ids.includes(child)) ids.push(child);
  return ids;
}
