import type { Db } from '../../db/client.js';
import type { Access } from '../access/access.js';
import { collectionSubtree } from './subtree.js';

/**
 * Deletes a collection and its nested collections. Spaces anywhere in that subtree go to the
 * trash at the organization's root (restorable for seven days like any deleted space).
 */
export async function deleteCollection(db: Db, access: Access, id: string): Promise<void> {
  const { collection } = await access.requireCollection(id, 'admin');
  await db.$transaction(async (tx) => {
    const inSubtree = { parentId: { in: await collectionSubtree(tx, collection.organizationId, id) } };
    await tx.space.updateMany({ where: { ...inSubtree, deletedAt: null }, data: { deletedAt: new Date() } });
    await tx.space.updateMany({ where: { ...inSubtree, visibility: 'in_collection' }, data: { visibility: 'private' } });
    await tx.space.updateMany({ where: inSubtree, data: { parentId: null } });
    await tx.collection.delete({ where: { id } }); // nested collections and grants cascade
  });
}
