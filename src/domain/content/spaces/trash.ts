/** Deleting a space moves it to the trash for seven days; it can be restored until purged. */
import type { Prisma } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import { enqueueJob } from '../../work/jobs/enqueue.js';
import { nextPosition } from '../content-tree/position.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { recordEvents } from '../../kernel/outbox.js';
import { spaceEvent } from '../events.js';
import { parentOf } from '../content-tree/parent.js';
import { conflict } from '../../../lib/errors.js';
import type { Access } from '../../access/access.js';
import { isLive, TRASH_RETENTION_MS } from './lifecycle.js';
import { visibilityUnder } from './visibility.js';

export async function deleteSpace(db: Db, access: Access, id: string): Promise<void> {
  const check = (a: Access) => a.requireSpace(id, 'trash');
  // Its siblings keep their positions (content-tree/position.ts); restored, it returns at the end.
  const parents = ({ space }: Awaited<ReturnType<typeof check>>) => [parentOf(space)];
  await guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check, parents }, async (tx, { space }) => {
    await tx.space.update({ where: { id }, data: { deletedAt: new Date() } });
    await recordEvents(tx, spaceEvent('spaceDeleted', space, access));
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
    await recordEvents(tx, spaceEvent('spaceRestored', s, access));
  });
  return id;
}

/**
 * Queues a purge job for each space past its trash period that has none yet (at most `limit` per
 * call; the hourly schedule catches up). Answers how many were queued.
 */
export async function schedulePurges(db: Db, now = new Date(), limit = 1000): Promise<number> {
  const cutoff = new Date(now.getTime() - TRASH_RETENTION_MS);
  return db.$transaction(async (tx) => {
    const expired = await tx.$queryRaw<{ id: string; organizationId: string }[]>`
      SELECT s."id", s."organizationId" FROM "Space" s
      WHERE s."deletedAt" < ${cutoff}
        AND NOT EXISTS (SELECT 1 FROM "Job" j WHERE j."spaceId" = s."id" AND j."kind" = 'space_purge' AND j."state" IN ('queued', 'running'))
      ORDER BY s."deletedAt" LIMIT ${limit}`;
    for (const space of expired) await enqueueJob(tx, { kind: 'space_purge', organizationId: space.organizationId, spaceId: space.id, createdById: null });
    return expired.length;
  });
}

/**
 * Permanently removes a space past its trash period, with everything in it (a space restored
 * meanwhile stays). Answers whether it removed it.
 */
export async function purgeSpace(tx: Prisma.TransactionClient, id: string, now = new Date()): Promise<boolean> {
  const cutoff = new Date(now.getTime() - TRASH_RETENTION_MS);
  const [purged] = await tx.$queryRaw<{ organizationId: string }[]>`DELETE FROM "Space" WHERE "id" = ${id} AND "deletedAt" < ${cutoff} RETURNING "organizationId"`;
  // The server's own write (no actor); no `spaceId`: the space is gone, so its readers cannot be asked.
  if (purged) await recordEvents(tx, { kind: 'spacePurged', organizationId: purged.organizationId, subjectId: id, actorId: null });
  return Boolean(purged);
}
