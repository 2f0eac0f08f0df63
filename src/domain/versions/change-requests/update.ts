import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { lazySchema, parseInput } from '../../../lib/validation.js';
import { subjectSchema } from './create.js';
import { changeRequestOf, recordChangeRequestEvent } from './events.js';
import { lockChangeRequest } from './line.js';

const input = lazySchema(() => z.object({ subject: subjectSchema.optional(), status: z.enum(['draft', 'open', 'archived']).optional() }).strict());

/**
 * Subject and status. Any of draft, open and archived may become any other (archiving and
 * reopening are both allowed); `merged` is reached only by merging, and a merged request is
 * final: changing it is a 409. A new subject is `changeRequestUpdated`, a new status
 * `changeRequestStatusChanged` (both when both change).
 */
export async function updateChangeRequest(db: Db, access: Access, spaceId: string, idOrNumber: string, raw: unknown): Promise<string> {
  const data = parseInput(input, raw ?? {});
  const check = (a: Access) => a.requireChangeRequest(spaceId, idOrNumber, 'edit');
  return guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check }, async (tx, { changeRequest, space }) => {
    const { changeRequest: current } = await lockChangeRequest(tx, changeRequest.id);
    await tx.changeRequest.update({ where: { id: changeRequest.id }, data });
    const of = changeRequestOf(space, changeRequest.id, access.userId);
    if (data.subject !== undefined) await recordChangeRequestEvent(tx, 'changeRequestUpdated', of, { fields: ['subject'] });
    if (data.status !== undefined && data.status !== current.status) await recordChangeRequestEvent(tx, 'changeRequestStatusChanged', of, { status: data.status, previous: current.status });
    return changeRequest.id;
  });
}
