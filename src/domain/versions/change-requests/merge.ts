/**
 * Merging a change request into its space: a three-way merge of the request's head with the
 * space's head against the space revision the request is based on. Without conflicts it writes one
 * `merge` revision of the space (rows only for what the merge changes there) and the request is
 * merged, for good. With conflicts nothing is written: the answer says `conflicts` (the request's
 * `conflicts` field lists them) and the request can be edited and merged again.
 */
import type { Db } from '../../../db/client.js';
import type { Access } from '../../access/access.js';
import { guardedWrite } from '../../access/guarded-write.js';
import { conflict } from '../../../lib/errors.js';
import { commitRevision } from '../revisions/commit.js';
import { revisionScope } from '../revisions/load.js';
import { reindexPages } from '../search/index-pages.js';
import type { RevisionScope } from '../revisions/scope.js';
import { lockChangeRequest, lockSpaceLine } from './line.js';
import { changeRequestOf, recordChangeRequestEvent, writtenEntities } from './events.js';
import { checkMergeRules } from './merge-rules.js';
import { sameAs, threeWay } from './three-way.js';
import { Prisma } from '../../../generated/prisma/client.js';

export type MergeOutcome = { revision: string; result: 'merge' | 'update' | 'conflicts' };

/** The space revision a change request revision is laid over. */
export async function baseOf(tx: Prisma.TransactionClient, head: RevisionScope): Promise<RevisionScope> {
  const [row] = await tx.$queryRaw<{ baseRevisionId: string }[]>`SELECT "baseRevisionId" FROM "Revision" WHERE "id" = ${head.id}`;
  return revisionScope(tx, row.baseRevisionId);
}

export async function mergeChangeRequest(db: Db, access: Access, spaceId: string, idOrNumber: string): Promise<MergeOutcome> {
  const check = (a: Access) => a.requireChangeRequest(spaceId, idOrNumber, 'merge');
  return guardedWrite(db, { access, organizations: ({ space }) => [space.organizationId], mode: 'use', check }, async (tx, { changeRequest: found, space }) => {
    const theirs = await lockSpaceLine(tx, spaceId);
    const { changeRequest, head } = await lockChangeRequest(tx, found.id);
    if (changeRequest.status === 'archived') throw conflict('The change request is archived: reopen it before merging');
    await checkMergeRules(tx, { changeRequest, space, userId: access.userId, upToDate: head.baseSeq === theirs.seq });
    const sides = { ours: head, base: await baseOf(tx, head), theirs };
    const result = await threeWay(tx, sides);
    if (result.conflicts.length) return { revision: theirs.id, result: 'conflicts' as const };
    const written = result.merged.filter((m) => !sameAs(m.version, m.theirs));
    const revision = await commitRevision(tx, {
      spaceId,
      lineId: spaceId,
      head: theirs,
      type: 'merge',
      parents: [theirs.id, head.id],
      createdById: access.userId,
      mergedFromId: changeRequest.id,
      writes: written.map(({ kind, entityId, version }) => ({ kind, entityId, version })),
    });
    await tx.space.update({ where: { id: spaceId }, data: { revisionId: revision.id } });
    await reindexPages(tx, spaceId, revision, written.filter((m) => m.kind === 'page').map((m) => m.entityId));
    await tx.changeRequest.update({
      where: { id: changeRequest.id },
      data: { status: 'merged', revisionMerged: revision.id, mergedById: access.userId, mergedAt: new Date() },
    });
    await recordChangeRequestEvent(tx, 'changeRequestMerged', changeRequestOf(space, changeRequest.id, access.userId), { revisionId: revision.id, ...writtenEntities(written) });
    return { revision: revision.id, result: 'merge' as const };
  });
}
