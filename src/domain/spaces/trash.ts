/** Deleting a space moves it to the trash for seven days; it can be restored until purged. */
import type { Db } from '../../db/client.js';
import { closeGap, nextPosition } from '../content-tree/position.js';
import { guardedWrite } from '../access/guarded-write.js';
import { parentOf } from '../content-tree/parent.js';
import { conflict } from '../errors.js';
import type { Access } from '../access/access.js';
import { isLive, TRASH_RETENTION_MS } from './lifecycle.js';
import { visibilityUnder } from './visibility.js';

export async function deleteSpace(db: Db, access: Access, id: string): Promise<void> {
  const check = (a: Access) => a.requireSpace(id, 'trash');
  // Its live siblings close ranks; restored, it returns at the end.
  const parents = ({ space }: Awaited<ReturnType<typeof check>>) => [parentOf(space)];
  await guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check, parents }, async (tx, { space }) => {
    await tx.space.update({ where: { id }, data: { deletedAt: new Date() } });
    await closeGap(tx, space.organizationId, space.parentId);
  });
}

export async function restoreSpace(db: Db, access: Access, id: string): Promise<string> {
  const check = async (a: Access) => {
    const { space } = await a.requireSpace(id, 'trash', { allowDeleted: true });
    if (isLive(space)) throw conflict('Space is not deleted');
    return space;
  };
  // Its parent may have been deleted meanwhile (onDelete: SetNull); it then returns to the root.
  await guardedWrite(db, { access, organizations: (s) => [s.organizationId], mode: 'use', check, parents: (s) => [parentOf(s)] }, async (tx, s) => {
    const position = await nextPosition(tx, s.organizationId, s.parentId);
    await tx.space.update({ where: { id }, data: { deletedAt: null, position, visibility: visibilityUnder(s.parentId, s.visibility) } });
  });
  return id;
}

/** Permanently removes spaces deleted more than seven days ago; returns how many. */
export async function purgeDeletedSpaces(db: Db, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - TRASH_RETENTION_MS);
  const { count } = await db.space.deleteMany({ where: { deletedAt: { lt: cutoff } } });
  return count;
}
