import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { parseInput } from '../../../lib/validation.js';
import { subjectSchema } from './create.js';
import { lockChangeRequest } from './line.js';

const input = z.object({ subject: subjectSchema.optional(), status: z.enum(['draft', 'open', 'archived']).optional() }).strict();

/**
 * Subject and status. Any of draft, open and archived may become any other (archiving and
 * reopening are both allowed); `merged` is reached only by merging, and a merged request is
 * final: changing it is a 409.
 */
export async function updateChangeRequest(db: Db, access: Access, spaceId: string, idOrNumber: string, raw: unknown): Promise<string> {
  const data = parseInput(input, raw ?? {});
  const check = (a: Access) => a.requireChangeRequest(spaceId, idOrNumber, 'edit');
  return guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check }, async (tx, { changeRequest }) => {
    await lockChangeRequest(tx, changeRequest.id);
    await tx.changeRequest.update({ where: { id: changeRequest.id }, data });
    return changeRequest.id;
  });
}
