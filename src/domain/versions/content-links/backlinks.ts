/**
 * Backlinks: the pages of a revision that link to a page or a file, by page ID, in pages read in
 * SQL. A document page links to the target when one of its document's "DocumentLink" rows names
 * it (`target`, with a `space` that is absent or the revision's own); a link page when its
 * `linkTarget` does. Both are index lookups (DocumentLink by target, ContentEntry by document and
 * by line and link target), joined to the entries the revision sees: nothing scans the revision.
 */
import { Prisma, type ContentEntry } from '../../../generated/prisma/client.js';
import { planPage, toPage, type Page, type PageArgs, type Queryable, type SortKey } from '../../kernel/pagination/keyset.js';
import type { PageEntry } from '../revisions/entries.js';
import { childPages, entitiesIn } from '../revisions/read.js';
import type { RevisionScope } from '../revisions/scope.js';
import { buildTree, pathOf, type PageNode } from '../revisions/tree.js';
import { visibleEntries } from '../revisions/visible.js';

type Sql = Prisma.Sql;
const { sql, raw } = Prisma;

/** What is linked to: a page (by `page` and `anchor` references) or a file (`file` references). */
export type BacklinkTarget = { kind: 'page' | 'file'; id: string };

/** A reference (SQL jsonb) in the revision's space: it names none (or not as a string), or the revision's own. */
const inSpace = (ref: Sql, scope: RevisionScope) => sql`(jsonb_typeof(${ref}->'space') IS DISTINCT FROM 'string' OR ${ref}->>'space' = ${scope.spaceId})`;

/** The two kinds of linking pages, as conditions on `e`: documents with such a link, link pages with such a target. */
function linking(scope: RevisionScope, target: BacklinkTarget): [Sql[], Sql[]] {
  const kinds = target.kind === 'page' ? ['page', 'anchor'] : ['file'];
  const documents = [
    sql`e."kind" = 'page'`,
    sql`e."type" = 'document'`,
    sql`e."documentId" IN (SELECT l."documentId" FROM "DocumentLink" l
      WHERE l."target" = ${target.id} AND l."kind" = ANY(${kinds}::text[]) AND ${inSpace(sql`l."ref"`, scope)})`,
  ];
  const linkPages = [
    sql`e."kind" = 'page'`,
    sql`e."type" = 'link'`,
    sql`e."linkTarget" = ${target.id}`,
    sql`e."data"->'target'->>'kind' = ANY(${kinds}::text[])`,
    inSpace(sql`e."data"->'target'`, scope),
  ];
  return [documents, linkPages];
}

const byPageId = (scope: RevisionScope, target: BacklinkTarget): SortKey<PageEntry> => ({
  tag: `backlinks:${scope.lineId}:${target.kind}:${target.id}`,
  columns: [{ sql: raw('e."entityId"'), type: 'text' }],
  keyOf: (e) => [e.entityId],
});

/** One page of the pages linking to `target`, by page ID, each with its path and subtree. */
export async function backlinksPage(db: Queryable, scope: RevisionScope, target: BacklinkTarget, args: PageArgs): Promise<Page<PageNode>> {
  const key = byPageId(scope, target);
  const plan = planPage(key, args);
  const branch = (where: Sql[]) => visibleEntries(scope, [...where, ...plan.seek], { orderBy: plan.orderBy, limit: plan.limit });
  const [documents, linkPages] = linking(scope, target);
  // A page version is a document or a link page, never both: the branches cannot repeat a page.
  const rows = await db.$queryRaw<ContentEntry[]>(sql`SELECT e.* FROM ((${branch(documents)}) UNION ALL (${branch(linkPages)})) e
    ORDER BY ${plan.orderBy} LIMIT ${plan.limit}`);
  const page = toPage(key, plan, rows.map(({ id: _id, ...entry }) => entry as PageEntry));
  const nodes = await pageNodes(db, scope, page.rows);
  return { ...page, rows: nodes, cursorOf: (node) => page.cursorOf(node.entry) };
}

/** How many pages of the revision link to `target`. */
export async function countBacklinks(db: Queryable, scope: RevisionScope, target: BacklinkTarget): Promise<number> {
  const [documents, linkPages] = linking(scope, target);
  const [row] = await db.$queryRaw<{ n: number }[]>(
    sql`SELECT count(*)::int AS n FROM ((${visibleEntries(scope, documents)}) UNION ALL (${visibleEntries(scope, linkPages)})) e`,
  );
  return row.n;
}

/**
 * Pages of the revision as nodes of its tree: each with its complete path and its subtree (as
 * `pageById` answers one). Statements: one per level above the deepest page, one per level below
 * them; whatever the number of pages.
 */
export async function pageNodes(db: Queryable, scope: RevisionScope, pages: readonly PageEntry[]): Promise<PageNode[]> {
  if (!pages.length) return [];
  const known = new Map(pages.map((p) => [p.entityId, p]));
  const unknownParents = (of: readonly PageEntry[]) => [...new Set(of.flatMap((p) => (p.parentId && !known.has(p.parentId) ? [p.parentId] : [])))];
  for (let missing = unknownParents(pages); missing.length; ) {
    const found = (await entitiesIn(db, scope, 'page', missing)) as PageEntry[];
    for (const parent of found) known.set(parent.entityId, parent);
    missing = unknownParents(found);
  }
  const ancestorsOf = (page: PageEntry) => {
    const out: PageEntry[] = [];
    const seen = new Set([page.entityId]);
    for (let parent = page.parentId && known.get(page.parentId); parent && !seen.has(parent.entityId); parent = parent.parentId && known.get(parent.parentId)) {
      seen.add(parent.entityId);
      out.push(parent);
    }
    return out;
  };

  const below: PageEntry[] = [...pages];
  const seen = new Set(pages.map((p) => p.entityId));
  for (let level = [...seen]; level.length; ) {
    const children = (await childPages(db, scope, level)).filter((c) => !seen.has(c.entityId) && seen.add(c.entityId));
    below.push(...children);
    level = children.map((c) => c.entityId);
  }
  return pages.map((entry) => {
    const path = pathOf(entry, ancestorsOf(entry));
    return { entry, path, children: buildTree(below, entry.entityId, path) };
  });
}
