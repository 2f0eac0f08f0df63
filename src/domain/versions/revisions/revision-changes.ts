/**
 * What a revision changed against its first parent (API `GET /spaces/{id}/revisions/{id}/changes`):
 * the entities whose rows the revision opened or closed since its parent — in its own line, and
 * for a change request's revision laid over a newer space revision (an update), in the space's
 * line between the two base revisions — compared as a change request's changes are
 * (change-requests/changes.ts). A first revision (no parent) is compared with nothing: everything
 * in it was created. For a merge revision the parent is the space revision it was merged onto, so
 * the changes are what the merge brought in.
 */
import { Prisma } from '../../../generated/prisma/client.js';
import type { Queryable } from '../../kernel/pagination/keyset.js';
import { changeRequestChanges } from '../change-requests/changes.js';
import type { Entry } from './entries.js';
import { revisionScope } from './load.js';
import type { RevisionScope } from './scope.js';

const { sql } = Prisma;

/** Entities of `lineId` with a row opened or closed at a seq in (from, to]. */
const touchedIn = (lineId: string, from: number, to: number) =>
  sql`SELECT e."entityId" FROM "ContentEntry" e WHERE e."lineId" = ${lineId}
    AND ((e."fromSeq" > ${from} AND e."fromSeq" <= ${to}) OR (e."toSeq" > ${from} AND e."toSeq" <= ${to}))`;

export async function revisionChanges(
  db: Queryable,
  revision: RevisionScope & { parents: string[] },
  limit: number,
  fileUrl: (file: Entry) => Promise<string>,
) {
  const parent: RevisionScope = revision.parents[0]
    ? await revisionScope(db, revision.parents[0])
    : { id: '', spaceId: revision.spaceId, lineId: revision.lineId, seq: 0, baseSeq: revision.baseSeq === null ? null : 0 };
  const sameLine = parent.lineId === revision.lineId;
  const parts = [touchedIn(revision.lineId, sameLine ? parent.seq : 0, revision.seq)];
  if (revision.baseSeq !== null) {
    // The space revision the parent saw: its own base, or the parent itself when it is the space's.
    const parentBase = sameLine ? (parent.baseSeq ?? 0) : parent.seq;
    if (parentBase !== revision.baseSeq) parts.push(touchedIn(revision.spaceId, Math.min(parentBase, revision.baseSeq), Math.max(parentBase, revision.baseSeq)));
  }
  const rows = await db.$queryRaw<{ entityId: string }[]>(sql`SELECT DISTINCT t."entityId" FROM (${Prisma.join(parts, ' UNION ALL ')}) t ORDER BY t."entityId"`);
  return changeRequestChanges(db, revision, parent, limit, fileUrl, rows.map((r) => r.entityId));
}
