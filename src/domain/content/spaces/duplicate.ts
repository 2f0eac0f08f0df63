import type { Prisma } from '../../../generated/prisma/client.js';
import type { Db } from '../../../db/client.js';
import { enqueueJob } from '../../work/jobs/enqueue.js';
import type { JobRow } from '../../work/jobs/rows.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { recordEvents } from '../../kernel/outbox.js';
import { spaceEvent } from '../events.js';
import { parentOf, requireCreatableParent } from '../content-tree/parent.js';
import { placeItem } from '../content-tree/position.js';
import { newId } from '../../kernel/ids.js';
import type { Access } from '../../access/access.js';
import { copyContent } from '../../versions/revisions/copy.js';
import { revisionScope } from '../../versions/revisions/load.js';
import { copySections } from '../../versions/search/index-pages.js';
import { transactionFrom } from '../../kernel/request-origin.js';

const TITLE_MAX = 50;
const SUFFIX = ' (copy)';

/** Who may copy a space: who can see it and create content where the copy goes (beside it). */
async function mayDuplicate(access: Access, id: string) {
  const { space } = await access.requireSpace(id, 'view');
  await requireCreatableParent(access, space.organizationId, space.parentId);
  return space;
}

/**
 * Starts copying a space: the copy is made by a job (kind `space_duplicate`, handled by
 * duplicateSpace), whose input names the copy's ID in advance. Checks the caller's right first.
 * `extra` joins the job's input (a site placement: publishing/sites/duplicate.ts).
 */
export async function startSpaceDuplicate(db: Db, access: Access, id: string, extra: Prisma.InputJsonObject = {}): Promise<JobRow> {
  const space = await mayDuplicate(access, id);
  return transactionFrom(db, access.from, (tx) =>
    enqueueJob(tx, { kind: 'space_duplicate', organizationId: space.organizationId, spaceId: id, input: { ...extra, copyId: newId('Space') }, createdById: access.userId, message: 'Copying the space' }),
  );
}

/**
 * Copies a space (settings, grants, a new revision descending from its current one, whose content
 * it shares: the copy's rows point at the same documents) right after it, as `copyId`. `inside`
 * runs last in the same transaction (a job marks itself done there); `alsoCheck`, a right the
 * caller needs besides, is checked with the copy's own (before, and inside the transaction).
 */
export async function duplicateSpace(
  db: Db,
  access: Access,
  id: string,
  opts: { copyId?: string; inside?: (tx: Prisma.TransactionClient, copy: { id: string; title: string }) => Promise<void>; alsoCheck?: (access: Access) => Promise<unknown> } = {},
): Promise<string> {
  const check = async (a: Access) => {
    const space = await mayDuplicate(a, id);
    await opts.alsoCheck?.(a);
    return space;
  };
  const copyId = opts.copyId ?? newId('Space');
  const revisionId = newId('Revision');
  await guardedWrite(db, { access, organizations: (s) => [s.organizationId], mode: 'use', check, parents: (s) => [parentOf(s)] }, async (tx, space) => {
    const title = `${space.title.slice(0, TITLE_MAX - SUFFIX.length)}${SUFFIX}`;
    await tx.space.create({
      data: {
        id: copyId,
        organizationId: space.organizationId,
        parentId: space.parentId,
        title,
        emoji: space.emoji,
        visibility: space.visibility,
        editMode: space.editMode,
        defaultLevel: space.defaultLevel,
        revisionId,
      },
    });
    await tx.revision.create({ data: { id: revisionId, spaceId: copyId, lineId: copyId, seq: 1, parents: [space.revisionId], createdById: access.userId } });
    await copyContent(tx, await revisionScope(tx, space.revisionId), copyId);
    await copySections(tx, id, copyId);
    const grants = await tx.contentPermission.findMany({ where: { spaceId: id } });
    await tx.contentPermission.createMany({
      data: grants.map((g) => ({ ...g, id: newId('ContentPermission'), spaceId: copyId, createdAt: undefined })),
    });
    // Right after the original.
    await placeItem(tx, space.organizationId, space.parentId, { kind: 'space', id: copyId }, { after: id });
    // Announced by the write that makes it (the job's), whether or not its request still waits.
    await recordEvents(tx, spaceEvent('spaceCreated', { id: copyId, organizationId: space.organizationId }, access, { duplicateOf: id }));
    await opts.inside?.(tx, { id: copyId, title });
  });
  return copyId;
}
