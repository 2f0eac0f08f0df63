/**
 * Bringing the space's current content into a change request (API `…/update`): the same
 * three-way merge as a merge, written into the request's line as an `update` revision based on
 * the space's head. The request then holds rows only for what still differs from the space.
 */
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { commitRevision } from '../revisions/commit.js';
import { changeRequestOf, recordChangeRequestEvent, writtenEntities } from './events.js';
import { lockChangeRequest, lockSpaceLine } from './line.js';
import { baseOf, type MergeOutcome } from './merge.js';
import { sameAs, threeWay } from './three-way.js';

export async function updateFromSpace(db: Db, access: Access, spaceId: string, idOrNumber: string): Promise<MergeOutcome> {
  const check = (a: Access) => a.requireChangeRequest(spaceId, idOrNumber, 'edit');
  return guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check }, async (tx, { changeRequest: found, space }) => {
    const theirs = await lockSpaceLine(tx, spaceId);
    const { changeRequest, head } = await lockChangeRequest(tx, found.id);
    if (head.baseSeq === theirs.seq) return { revision: head.id, result: 'update' as const };
    const result = await threeWay(tx, { ours: head, base: await baseOf(tx, head), theirs });
    if (result.conflicts.length) return { revision: head.id, result: 'conflicts' as const };
    const revision = await commitRevision(tx, {
      spaceId,
      lineId: changeRequest.id,
      head,
      base: { id: theirs.id, seq: theirs.seq },
      type: 'update',
      parents: [head.id, theirs.id],
      createdById: access.userId,
      writes: result.merged.map(({ kind, entityId, version, theirs: current }) =>
        sameAs(version, current) ? { kind, entityId, version, inherit: true } : { kind, entityId, version },
      ),
    });
    await tx.changeRequest.update({ where: { id: changeRequest.id }, data: { revisionId: revision.id, revisionMergedAncestor: theirs.id } });
    await recordChangeRequestEvent(tx, 'changeRequestUpdatedFromSpace', changeRequestOf(space, changeRequest.id, access.userId), { revisionId: revision.id, ...writtenEntities(result.merged) });
    return { revision: revision.id, result: 'update' as const };
  });
}
