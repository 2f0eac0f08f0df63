import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { LIVE } from '../spaces/lifecycle.js';
import { detachToRoot } from '../spaces/visibility.js';
import { collectionSubtree } from './subtree.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { recordEvents } from '../../kernel/outbox.js';
import { collectionEvent } from '../events.js';
import { parentOf } from '../content-tree/parent.js';

/**
 * Deletes a collection and its nested collections. Spaces anywhere in that subtree go to the
 * trash at the organization's root (restorable for seven days like any deleted space).
 */
export async function deleteCollection(db: Db, access: Access, id: string): Promise<void> {
  const check = (a: Access) => a.requireCollection(id, 'delete');
  const parents = ({ collection }: Awaited<ReturnType<typeof check>>) => [parentOf(collection)];
  // Grants on the subtree go with it, and its spaces leave it: a change of access.
  await guardedWrite(db, { access, organizations: ({ collection: c }) => [c.organizationId], mode: 'change', check, parents }, async (tx, { collection }) => {
    const inSubtree = { parentId: { in: await collectionSubtree(tx, collection.organizationId, id) } };
    await tx.space.updateMany({ where: { ...inSubtree, ...LIVE }, data: { deletedAt: new Date() } });
    await detachToRoot(tx, inSubtree);
    await tx.collection.delete({ where: { id } }); // nested collections and grants cascade
    await recordEvents(tx, collectionEvent('collectionDeleted', collection, access));
  });
}
