/**
 * What a published page reads of its revision, in two statements whatever the size of the space:
 * - pageRows: the pages along its path (each level a lookup by parent and slug), the body of the
 *   last, and the pages its navigation shows (the top level, the pages of top-level groups, the
 *   children of each page along the path);
 * - linkRows: the pages and files its body links to, with the linked pages' ancestors (for their
 *   paths), walked up by a recursive query.
 * Both read the revision's entries through visibleEntries, as every content read does.
 */
import { Prisma, type ContentEntry } from '../generated/prisma/client.js';
import type { Db } from '../db/client.js';
import type { JSONDocument } from '../lib/documents/types.js';
import type { Entry, PageEntry } from '../domain/versions/revisions/entries.js';
import type { RevisionScope } from '../domain/versions/revisions/scope.js';
import { visibleEntries } from '../domain/versions/revisions/visible.js';

const { sql, join, raw } = Prisma;

/** Deeper paths name no page (a URL of more segments is not looked up). */
export const MAX_PAGE_DEPTH = 32;

type Row = ContentEntry & { _role: 'chain' | 'nav'; _depth: number | null; _body: JSONDocument | null };

const asEntry = <T extends Entry>({ id: _id, _role, _depth, _body, ...entry }: Partial<Row> & ContentEntry) => entry as unknown as T;

export type PageRows = {
  /** The pages along the path, top first: shorter than the path when it names no page. */
  chain: PageEntry[];
  /** The last page's body (none when the path names no page, or a page without one). */
  body: JSONDocument | null;
  /** The pages the navigation shows. */
  nav: PageEntry[];
};

/** The pages along `segments` (slugs; none: the navigation's top level and groups only) and the navigation around them. */
export async function pageRows(db: Db, scope: RevisionScope, segments: readonly string[]): Promise<PageRows> {
  const page = (where: Prisma.Sql[]) => visibleEntries(scope, [sql`e."kind" = 'page'`, ...where]);
  const levels = segments.map((slug, i) => {
    const parent = i === 0 ? sql`e."parentId" IS NULL` : sql`e."parentId" IN (SELECT "entityId" FROM ${raw(`l${i}`)})`;
    return sql`${raw(`l${i + 1}`)} AS (SELECT e.* FROM (${page([parent, sql`e."slug" = ${slug}`])}) e ORDER BY e."entityId" LIMIT 1)`;
  });
  const chain = segments.length
    ? join(segments.map((_, i) => sql`SELECT ${i + 1}::int AS "_depth", * FROM ${raw(`l${i + 1}`)}`), ' UNION ALL ')
    : sql`SELECT NULL::int AS "_depth", e.* FROM "ContentEntry" e WHERE false`;
  const rows = await db.$queryRaw<Row[]>(sql`
    WITH ${join([...levels, sql`chain AS (${chain})`, sql`top AS (${page([sql`e."parentId" IS NULL`])})`], ', ')}
    SELECT 'chain' AS "_role", c.*, d."body" AS "_body" FROM chain c LEFT JOIN "Document" d ON d."id" = c."documentId" AND c."_depth" = ${segments.length}
    UNION ALL SELECT 'nav', NULL::int, t.*, NULL FROM top t
    UNION ALL SELECT 'nav', NULL::int, n.*, NULL FROM (${page([sql`(e."parentId" IN (SELECT "entityId" FROM chain) OR e."parentId" IN (SELECT "entityId" FROM top WHERE "type" = 'group'))`])}) n`);
  const chainRows = rows.filter((r) => r._role === 'chain').sort((a, b) => a._depth! - b._depth!);
  const last = chainRows.length === segments.length ? chainRows[chainRows.length - 1] : undefined;
  return { chain: chainRows.map((r) => asEntry<PageEntry>(r)), body: last?._body ?? null, nav: rows.filter((r) => r._role === 'nav').map((r) => asEntry<PageEntry>(r)) };
}

/** The pages and files of `entityIds`, and every ancestor of those pages. */
export async function linkRows(db: Db, scope: RevisionScope, entityIds: readonly string[]): Promise<Entry[]> {
  if (!entityIds.length) return [];
  const rows = await db.$queryRaw<ContentEntry[]>(sql`
    WITH RECURSIVE found AS (
      SELECT e.* FROM (${visibleEntries(scope, [sql`e."kind" IN ('page', 'file')`, sql`e."entityId" = ANY(${[...entityIds]}::text[])`])}) e
      UNION
      SELECT p.* FROM found f CROSS JOIN LATERAL (${visibleEntries(scope, [sql`e."kind" = 'page'`, sql`e."entityId" = f."parentId"`])}) p
    )
    SELECT * FROM found`);
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(`${r.kind} ${r.entityId}`) && seen.add(`${r.kind} ${r.entityId}`)).map((r) => asEntry(r));
}
