import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { newId } from '../../kernel/ids.js';
import { commitRevision } from '../revisions/commit.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { changeRequestOf, recordChangeRequestEvent } from './events.js';
import { lockSpaceLine } from './line.js';

export const SUBJECT_MAX = 100;
export const subjectSchema = lazySchema(() => z.string().trim().max(SUBJECT_MAX));

const input = lazySchema(() => z.object({ subject: subjectSchema.optional() }).strict());

/**
 * Opens a change request on the space's current revision: the next number of the space (numbers
 * come from the locked space row, so concurrent creations get consecutive numbers and a failed
 * one leaves no gap), and the first revision of its line, which changes nothing yet. New requests
 * are drafts, as on the real service.
 */
export async function createChangeRequest(db: Db, access: Access, spaceId: string, raw: unknown): Promise<string> {
  const data = parseInput(input, raw ?? {});
  const check = (a: Access) => a.requireSpace(spaceId, 'edit');
  const id = newId('ChangeRequest');
  await guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check }, async (tx, { space }) => {
    const base = await lockSpaceLine(tx, spaceId);
    const [{ number }] = await tx.$queryRaw<{ number: number }[]>`UPDATE "Space" SET "lastChangeRequestNumber" = "lastChangeRequestNumber" + 1
      WHERE "id" = ${spaceId} RETURNING "lastChangeRequestNumber" AS number`;
    const revision = await commitRevision(tx, {
      spaceId,
      lineId: id,
      head: null,
      base: { id: base.id, seq: base.seq },
      type: 'edits',
      parents: [base.id],
      createdById: access.userId,
      writes: [],
    });
    await tx.changeRequest.create({
      data: { id, spaceId, number, subject: data.subject ?? '', createdById: access.userId, revisionId: revision.id, revisionInitialId: base.id },
    });
    await recordChangeRequestEvent(tx, 'changeRequestCreated', changeRequestOf(space, id, access.userId), { number });
  });
  return id;
}
