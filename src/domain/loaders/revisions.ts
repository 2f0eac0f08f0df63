/** Loaders of revision content: pages, and which pages exist. */
import type { Db } from '../../db/client.js';
import { Prisma, type ContentEntry } from '../../generated/prisma/client.js';
import type { Entry, EntityKind, PageEntry } from '../versions/revisions/entries.js';
import type { RevisionScope } from '../versions/revisions/scope.js';
import { visibleEntries } from '../versions/revisions/visible.js';
import { revisionScope } from '../versions/revisions/load.js';
import { entitiesIn } from '../versions/revisions/read.js';
import { groupBy, revisionPageKey, splitKey } from './keys.js';
import type { LoaderRegistry } from './registry.js';

/** Every entity of a kind (pages: no bodies) of each revision: one statement for all the revisions asked for. */
async function entriesOfRevisions<T extends Entry>(db: Db, ids: readonly string[], kind: EntityKind): Promise<T[][]> {
  const scopes = await db.$queryRaw<RevisionScope[]>(Prisma.sql`SELECT "id", "spaceId", "lineId", "seq", "baseSeq" FROM "Revision" WHERE "id" = ANY(${[...ids]}::text[])`);
  if (!scopes.length) return ids.map(() => []);
  const parts = scopes.map((scope) => Prisma.sql`SELECT ${scope.id}::text AS "revisionId", v.* FROM (${visibleEntries(scope, [Prisma.sql`e."kind" = ${kind}`])}) v`);
  const rows = await db.$queryRaw<(ContentEntry & { revisionId: string })[]>(Prisma.join(parts, ' UNION ALL '));
  const byRevision = new Map<string, T[]>(ids.map((id) => [id, []]));
  for (const { revisionId, id: _id, ...entry } of rows) byRevision.get(revisionId)?.push(entry as T);
  return ids.map((id) => byRevision.get(id)!);
}

export function revisionLoaders(db: Db, registry: LoaderRegistry) {
  return {
    /** Every page of each revision (no bodies), batched across revisions (nested reads of many change requests). */
    revisionPages: registry.track<string, PageEntry[]>((ids) => entriesOfRevisions<PageEntry>(db, ids, 'page')),
    /** Every file of each revision (tens), batched across revisions: where markdown links point (content-links/layout.ts). */
    revisionFiles: registry.track<string, Entry[]>((ids) => entriesOfRevisions<Entry>(db, ids, 'file')),
    /** Every reusable content of each revision, batched across revisions: where `{% include %}` points (content-links/markdown-refs.ts). */
    revisionReusableContents: registry.track<string, Entry[]>((ids) => entriesOfRevisions<Entry>(db, ids, 'reusable-content')),
    /** Whether a page exists in a revision, by `revisionPageKey`; one statement per revision, IDs only. */
    revisionPageExists: registry.track<string, boolean>(async (keys) => {
      const byRevision = new Map<string, string[]>();
      for (const [revisionId, pageId] of keys.map(splitKey)) byRevision.set(revisionId, [...(byRevision.get(revisionId) ?? []), pageId]);
      const found = new Set<string>();
      await Promise.all(
        [...byRevision].map(async ([revisionId, pageIds]) => {
          const entries = await entitiesIn(db, await revisionScope(db, revisionId), 'page', pageIds);
          for (const e of entries) found.add(revisionPageKey(revisionId, e.entityId));
        }),
      );
      return keys.map((k) => found.has(k));
    }),
    /** Distinct revisions of each space's open change requests, by change request number. */
    openChangeRequestRevisions: registry.track<string, string[]>(async (ids) => {
      const rows = await db.$queryRaw<{ spaceId: string; revisionId: string }[]>(Prisma.sql`SELECT "spaceId", "revisionId" FROM "ChangeRequest"
        WHERE "spaceId" = ANY(${[...ids]}::text[]) AND "status" = 'open' ORDER BY "number"`);
      return groupBy(rows, (r) => r.spaceId, ids).map((list) => [...new Set(list.map((r) => r.revisionId))]);
    }),
  };
}
