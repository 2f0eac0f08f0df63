/** Deleting a space moves it to the trash for seven days; it can be restored until purged. */
import type { Db } from '../../db/client.js';
import { nextPosition } from '../content-tree/position.js';
import { conflict } from '../errors.js';
import type { Access } from '../access/access.js';
import { isLive, TRASH_RETENTION_MS } from './lifecycle.js';
import { visibilityUnder } from './visibility.js';

export async function deleteSpace(db: Db, access: Access, id: string): Promise<void> {
  await access.requireSpace(id, 'trash');
  await db.space.update({ where: { id }, data: { deletedAt: new Date() } });
}

export async function restoreSpace(db: Db, access: Access, id: string): Promise<string> {
  const { space } = await access.requireSpace(id, 'trash', { allowDeleted: true });
  if (isLive(space)) throw conflict('Space is not deleted');
  await db.$transaction(async (tx) => {
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
