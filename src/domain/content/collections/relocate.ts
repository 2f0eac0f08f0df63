/** Moving a collection within its organization's tree, and transferring it to another organization. */
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { placeItem } from '../content-tree/position.js';
import { positionSchema, type Position } from '../../kernel/position.js';
import { badRequest, conflict } from '../../../lib/errors.js';
import type { Access } from '../../access/access.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { recordEvents } from '../../kernel/outbox.js';
import { collectionEvent, transferEvents } from '../events.js';
import { parentOf, requireCreatableParent } from '../content-tree/parent.js';
import type { CollectionRow } from './rows.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { LIVE } from '../spaces/lifecycle.js';
import { detachToRoot } from '../spaces/visibility.js';
import { collectionSubtree } from './subtree.js';

const moveInput = lazySchema(() => z.object({ parent: z.string().nullish(), position: positionSchema.nullish() }));
export type MoveCollectionInput = { parent?: string | null; position?: Position | null };

export async function moveCollection(db: Db, access: Access, id: string, raw: MoveCollectionInput): Promise<string> {
  const data = parseInput(moveInput, raw);
  if (data.parent === undefined && !data.position) throw badRequest('Give "parent", "position" or both', 'parent');
  const check = async (a: Access) => {
    const { collection } = await a.requireCollection(id, 'relocate');
    const parentId = data.parent === undefined ? collection.parentId : await requireCreatableParent(a, collection.organizationId, data.parent);
    return { collection, parentId };
  };
  const parents = ({ collection: c, parentId }: Awaited<ReturnType<typeof check>>) => [parentOf(c), { organizationId: c.organizationId, collectionId: parentId }];
  await guardedWrite(db, { access, organizations: ({ collection: c }) => [c.organizationId], mode: 'change', check, parents }, async (tx, { collection, parentId }) => {
    const { organizationId } = collection;
    if (parentId && (await collectionSubtree(tx, organizationId, id)).includes(parentId)) {
      throw badRequest('Invalid value for "parent": a collection cannot be moved into itself or one of its descendants', 'parent');
    }
    await tx.collection.update({ where: { id }, data: { parentId } });
    await placeItem(tx, organizationId, parentId, { kind: 'collection', id }, data.position ?? undefined);
    await recordEvents(tx, collectionEvent('collectionMoved', collection, access));
  });
  return id;
}

const transferInput = lazySchema(() => z.object({ organization: z.string().min(1) }));
export type TransferCollectionInput = z.input<typeof transferInput>;

/**
 * Moves a collection, with its nested collections and their live spaces, to the root of another
 * organization. Grants on the moved content are dropped: their users and teams belong to the old
 * organization. Deleted spaces stay in the old organization's trash.
 */
export async function transferCollection(db: Db, access: Access, id: string, raw: TransferCollectionInput): Promise<string> {
  const data = parseInput(transferInput, raw);
  const check = async (a: Access) => {
    const { collection } = await a.requireCollection(id, 'relocate');
    await a.requireOrganization(data.organization, 'createContent');
    if (data.organization === collection.organizationId && !collection.parentId) throw conflict('The collection is already at the root of this organization');
    return collection;
  };
  const organizations = (c: CollectionRow) => [c.organizationId, data.organization];
  const parents = (c: CollectionRow) => [parentOf(c), { organizationId: data.organization, collectionId: null }];
  await guardedWrite(db, { access, organizations, mode: 'change', check, parents }, async (tx, collection) => {
    const sameOrg = data.organization === collection.organizationId;
    if (!sameOrg) {
      const ids = await collectionSubtree(tx, collection.organizationId, id);
      const inSubtree = { parentId: { in: ids } };
      const trashed = { ...inSubtree, deletedAt: { not: null } };
      // Grants and invite links belong to the organization the content leaves.
      const content = { OR: [{ collectionId: { in: ids } }, { space: { ...inSubtree, ...LIVE } }] };
      await tx.contentPermission.deleteMany({ where: content });
      await tx.linkInvite.deleteMany({ where: content });
      await detachToRoot(tx, trashed);
      await tx.space.updateMany({ where: inSubtree, data: { organizationId: data.organization } });
      await tx.collection.updateMany({ where: { id: { in: ids } }, data: { organizationId: data.organization } });
    }
    await tx.collection.update({ where: { id }, data: { parentId: null } });
    await placeItem(tx, data.organization, null, { kind: 'collection', id });
    await recordEvents(tx, transferEvents('collectionTransferred', { id, organizationId: data.organization }, collection.organizationId, access));
  });
  return id;
}
