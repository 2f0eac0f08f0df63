/** Deleting a space moves it to the trash for seven days; it can be restored until purged. */
import type { Db } from '../../db/client.js';
import { closeGap, nextPosition } from '../content-tree/position.js';
import { treeTransaction } from '../content-tree/transaction.js';
import { conflict } from '../errors.js';
import type { Access } from '../access/access.js';
import { isLive, TRASH_RETENTION_MS } from './lifecycle.js';
import { visibilityUnder } from './visibility.js';

export async function deleteSpace(db: Db, access: Access, id: string): Promise<void> {
  const { space } = await access.requireSpace(id, 'trash');
  // Its live siblings close ranks; restored, it returns at the end.
  await treeTransaction(db, [{ organizationId: space.organizationId, collectionId: space.parentId }], async (tx) => {
    await tx.space.update({ where: { id }, data: { deletedAt: new Date() } });
    await closeGap(tx, space.organizationId, space.parentId);
  });
}

export async function restoreSpace(db: Db, access: Access, id: string): Promise<string> {
  const { space } = await access.requireSpace(id, 'trash', { allowDeleted: true });
  if (isLive(space)) throw conflict('Space is not deleted');
  // Its parent is read inside: nextPosition locks it.
  await treeTransaction(db, [], async (tx) => {
    // Its parent may have been deleted meanwhile (onDelete: SetNull); it then returns to the root.
    const current = await tx.space.findUniqueOrThrow({ where: { id }, select: { parentId: true, visibility: true } });
    const position = await nextPosition(tx, space.organizationId, current.parentId);
    await tx.space.update({ where: { id }, data: { deletedAt: null, position, visibility: visibilityUnder(current.parentId, current.visibility) } });
  });
  return id;
}

/** Permanently removes spaces deleted more than seven days ago; returns how many. */
export async function purgeDeletedSpaces(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - TRASH_RETENTION_MS);
  const { count } = await db.space.deleteMany({ where: { deletedAt: { lt: cutoff } } });
  return count;
}
