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
    const rows = writes.flatMap((w): NewEntry[] => {
      if (w.inherit) return [];
      const where = { kind: w.kind, entityId: w.entityId };
      // Link pages keep the page or file their target names in a column: backlinks are a query.
      const linkTarget = w.kind === 'page' && w.version?.type === 'link' ? linkPageTarget(w.version.data.target) : null;
      if (w.version) return [{ ...where, version: versionOf(w.version), deleted: false, linkTarget }];
      // In a change request's line a removal is a row of its own: it hides the base's version.
      return overlay ? [{ ...where, version: null, deleted: true, linkTarget: null }] : [];
    });
    for (let i = 0; i < rows.length; i += ENTRIES_PER_STATEMENT) await insertEntries(tx, scope, now, rows.slice(i, i + ENTRIES_PER_STATEMENT));
  }
  return scope;
}

type NewEntry = { kind: string; entityId: string; version: EntityVersion | null; deleted: boolean; linkTarget: string | null };

const ENTRIES_PER_STATEMENT = 5_000;

/**
 * The new rows, one array per column through unnest: one statement whatever the count, and no
 * per-row objects for the client to build (a 10,000-page import held the event loop for seconds
 * in createMany). Timestamps go as UTC text: a zone in a `timestamp` literal is ignored.
 */
async function insertEntries(tx: Tx, scope: RevisionScope, now: Date, rows: readonly NewEntry[]): Promise<void> {
  const column = <T>(pick: (row: NewEntry) => T) => rows.map(pick);
  const stamp = now.toISOString();
  await tx.$executeRaw`INSERT INTO "ContentEntry" ("spaceId", "lineId", "fromSeq", "kind", "entityId", "deleted", "parentId", "position", "type", "title", "slug", "documentId", "data", "createdAt", "updatedAt", "linkTarget")
    SELECT ${scope.spaceId}, ${scope.lineId}, ${scope.seq}::int, r."kind", r."entityId", r."deleted", r."parentId", r."position", r."type", r."title", r."slug", r."documentId", r."data", r."createdAt", ${stamp}::timestamp(3), r."linkTarget"
    FROM unnest(
      ${column((r) => r.kind)}::text[], ${column((r) => r.entityId)}::text[], ${column((r) => r.deleted)}::boolean[], ${column((r) => r.version?.parentId ?? null)}::text[],
      ${column((r) => r.version?.position ?? '')}::text[], ${column((r) => r.version?.type ?? '')}::text[], ${column((r) => r.version?.title ?? '')}::text[], ${column((r) => r.version?.slug ?? '')}::text[],
      ${column((r) => r.version?.documentId ?? null)}::text[], ${column((r) => JSON.stringify(r.version?.data ?? {}))}::jsonb[], ${column((r) => new Date(r.version?.createdAt ?? now).toISOString())}::timestamp(3)[],
      ${column((r) => r.linkTarget)}::text[]
    ) AS r("kind", "entityId", "deleted", "parentId", "position", "type", "title", "slug", "documentId", "data", "createdAt", "linkTarget")`;
}

/** Only the fields of a version (a caller's object may carry more). */
export function versionOf(v: EntityVersion): EntityVersion {
  return { parentId: v.parentId, position: v.position, type: v.type, title: v.title, slug: v.slug, documentId: v.documentId, data: v.data, createdAt: v.createdAt };
}

async function baseOf(tx: Tx, head: RevisionScope): Promise<string | null> {
  const row = await tx.revision.findUnique({ where: { id: head.id }, select: { baseRevisionId: true } });
  return row?.baseRevisionId ?? null;
}
