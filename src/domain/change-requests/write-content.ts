import type { Db } from '../../db/client.js';
import type { Access } from '../access/access.js';
import { guardedWrite } from '../access/guarded-write.js';
import { commitRevision } from '../revisions/commit.js';
import { parseInput } from '../validation.js';
import { applyChanges, type ChangeOutcome } from './apply.js';
import { lockChangeRequest } from './line.js';
import { changesSchema, type PageChange } from './page-input.js';
import { Workspace } from './workspace.js';

/**
 * Applies a batch of page changes to a change request as one new revision of its line (needs
 * `edit` on the space, which a locked space refuses). A batch that changes nothing adds no revision.
 */
export async function writeContent(
  db: Db,
  access: Access,
  spaceId: string,
  idOrNumber: string,
  raw: { changes: PageChange[] } | unknown,
): Promise<{ changeRequestId: string; outcomes: ChangeOutcome[] }> {
  const { changes } = parseInput(changesSchema, raw);
  const check = (a: Access) => a.requireChangeRequest(spaceId, idOrNumber, 'edit');
  return guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check }, async (tx, { changeRequest: found }) => {
    const { changeRequest, head } = await lockChangeRequest(tx, found.id);
    const ws = new Workspace(tx, head);
    const outcomes = await applyChanges(tx, ws, changes);
    const writes = ws.writes();
    if (writes.length) {
      const revision = await commitRevision(tx, {
        spaceId,
        lineId: changeRequest.id,
        head,
        type: 'edits',
        parents: [head.id],
        createdById: access.userId,
        writes,
      });
      await tx.changeRequest.update({ where: { id: changeRequest.id }, data: { revisionId: revision.id } });
    }
    return { changeRequestId: changeRequest.id, outcomes };
  });
}
