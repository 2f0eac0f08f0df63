/**
 * Writing a revision: the next one of a line, changing only the entities it names. For each, the
 * line's current row is closed (its `toSeq` set) and the new version added; the rows of every
 * other entity stay as they are and are seen by the new revision too. A revision therefore
 * writes a number of rows that depends on what it changes, not on the size of the space.
 * Callers hold the line's lock (the space row, or the change request row, FOR UPDATE).
 */
import { Prisma } from '../../../generated/prisma/client.js';
import { linkPageTarget } from '../../../lib/documents/extract-links.js';
import { newId } from '../../kernel/ids.js';
import type { EntityKind } from './entries.js';
import type { RevisionScope } from './scope.js';

type Tx = Prisma.TransactionClient;

/** An entity as a revision holds it (everything but where it is visible). */
export type EntityVersion = {
  parentId: string | null;
  position: string;
  type: string;
  title: string;
  slug: string;
  documentId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
};

/**
 * One entity changed by a revision; `version` null removes it. `inherit` (change-request lines):
 * the request no longer changes the entity — its row is closed and the base's version shows again.
 */
export type EntityWrite = { kind: EntityKind; entityId: string; version: EntityVersion | null; inherit?: boolean };

export type NewRevision = {
  spaceId: string;
  lineId: string;
  /** The line's newest revision (null: the line starts here). */
  head: RevisionScope | null;
  /** Change-request lines: the space revision the new revision is laid over. */
  base?: { id: string; seq: number };
  type: 'edits' | 'merge' | 'update' | 'rollback';
  parents: string[];
  createdById: string | null;
  mergedFromId?: string;
  writes: readonly EntityWrite[];
};

export async function commitRevision(tx: Tx, revision: NewRevision): Promise<RevisionScope> {
  const seq = (revision.head?.seq ?? 0) + 1;
  const overlay = revision.lineId !== revision.spaceId;
  const scope: RevisionScope = {
    id: newId('Revision'),
    spaceId: revision.spaceId,
    lineId: revision.lineId,
    seq,
    baseSeq: overlay ? (revision.base?.seq ?? revision.head?.baseSeq ?? null) : null,
  };
  if (overlay && scope.baseSeq === null) throw new Error('a change request revision needs a base');
  await tx.revision.create({
    data: {
      ...scope,
      baseRevisionId: overlay ? (revision.base?.id ?? (await baseOf(tx, revision.head!))) : null,
      parents: revision.parents,
      type: revision.type,
      createdById: revision.createdById,
      mergedFromId: revision.mergedFromId ?? null,
    },
  });
  const writes = [...new Map(revision.writes.map((w) => [w.entityId, w])).values()];
  if (writes.length) {
    await tx.$executeRaw`UPDATE "ContentEntry" SET "toSeq" = ${seq}
      WHERE "lineId" = ${revision.lineId} AND "toSeq" IS NULL AND "entityId" = ANY(${writes.map((w) => w.entityId)}::text[])`;
    const now = new Date();
    const rows = writes.flatMap((w): Prisma.ContentEntryCreateManyInput[] => {
      if (w.inherit) return [];
      const where = { spaceId: revision.spaceId, lineId: revision.lineId, fromSeq: seq, kind: w.kind, entityId: w.entityId, updatedAt: now };
      // Link pages keep the page or file their target names in a column: backlinks are a query.
      const linkTarget = w.kind === 'page' && w.version?.type === 'link' ? linkPageTarget(w.version.data.target) : null;
      if (w.version) return [{ ...where, ...versionOf(w.version), data: w.version.data as Prisma.InputJsonObject, linkTarget }];
      // In a change request's line a removal is a row of its own: it hides the base's version.
      return overlay ? [{ ...where, deleted: true, createdAt: now }] : [];
    });
    if (rows.length) await tx.contentEntry.createMany({ data: rows });
  }
  return scope;
}

/** Only the fields of a version (a caller's object may carry more). */
export function versionOf(v: EntityVersion): EntityVersion {
  return { parentId: v.parentId, position: v.position, type: v.type, title: v.title, slug: v.slug, documentId: v.documentId, data: v.data, createdAt: v.createdAt };
}

async function baseOf(tx: Tx, head: RevisionScope): Promise<string | null> {
  const row = await tx.revision.findUnique({ where: { id: head.id }, select: { baseRevisionId: true } });
  return row?.baseRevisionId ?? null;
}
