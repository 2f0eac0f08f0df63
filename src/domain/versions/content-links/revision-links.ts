/**
 * The links of one revision, with what deciding their status needs: its space and which of the
 * pages, files and reusable contents the links name exist in it. Read from "DocumentLink" rows
 * (written with the documents, see extract.ts), never from the documents' bodies.
 */
import { Prisma } from '../../../generated/prisma/client.js';
import type { PageData, PageEntry } from '../revisions/entries.js';
import type { Queryable } from '../../kernel/pagination/keyset.js';
import type { RevisionScope } from '../revisions/scope.js';
import { buildTree, walk } from '../revisions/tree.js';
import { visibleEntries } from '../revisions/visible.js';
import { asContentRef, refField, type ContentRef } from '../../../lib/documents/content-ref.js';
import type { LinkLocation, PageLink } from '../../../lib/documents/extract-links.js';
import { pageTarget, reusableContentTarget } from './page-target.js';
import type { LinkSource } from './link-source.js';

const { sql } = Prisma;

export type { LinkSource };

/** The links of one page given its document's references: a link page's target, a document's links. */
export function pageLinksOf(page: Pick<PageEntry, 'type' | 'data'>, location: LinkLocation, documentRefs: readonly ContentRef[]): PageLink[] {
  const refs = page.type === 'document' ? documentRefs : page.type === 'link' ? [asContentRef((page.data as PageData).target)].filter((r): r is ContentRef => !!r) : [];
  return refs.map((target) => ({ target, location }));
}

/**
 * Every page of the revision with the references of its document's links, in document order:
 * one statement over the revision's visible pages joined to "DocumentLink".
 */
async function pagesWithLinks(db: Queryable, scope: RevisionScope): Promise<{ entry: PageEntry; refs: ContentRef[] }[]> {
  const rows = await db.$queryRaw<(PageEntry & { id: bigint; refs: ContentRef[] })[]>(sql`SELECT e.*, COALESCE(
      (SELECT json_agg(l."ref" ORDER BY l."ordinal") FROM "DocumentLink" l WHERE e."type" = 'document' AND l."documentId" = e."documentId"),
      '[]'::json) AS "refs"
    FROM (${visibleEntries(scope, [sql`e."kind" = 'page'`])}) e`);
  return rows.map(({ id: _id, refs, ...entry }) => ({ entry: entry as PageEntry, refs }));
}

/** The links of every page of the revision, in page tree order then document order. */
export async function revisionLinkSource(db: Queryable, space: LinkSource['space'], scope: RevisionScope): Promise<LinkSource> {
  const rows = await pagesWithLinks(db, scope);
  const refsOf = new Map(rows.map((r) => [r.entry.entityId, r.refs]));
  const nodes = [...walk(buildTree(rows.map((r) => r.entry)))];
  const links = nodes.flatMap((n) => pageLinksOf(n.entry, { page: n.entry.entityId, path: n.path }, refsOf.get(n.entry.entityId) ?? []));
  const pageIds = new Set(nodes.map((n) => n.entry.entityId));
  return { space, ...(await namedInRevision(db, scope, space, links, pageIds)), links };
}

/**
 * Which of the pages (unless `pageIds`, every page of the revision, is given), files and reusable
 * contents the links name in their own revision exist there: one statement, none when they name none.
 */
export async function namedInRevision(
  db: Queryable,
  scope: RevisionScope,
  space: LinkSource['space'],
  links: readonly PageLink[],
  pageIds?: ReadonlySet<string>,
): Promise<Pick<LinkSource, 'pageIds' | 'fileIds' | 'reusableContentIds'>> {
  const wanted = { page: new Set<string>(), file: new Set<string>(), 'reusable-content': new Set<string>() };
  const source = { space };
  for (const link of links) {
    const page = pageTarget(link, source);
    if (page && !page.space && !pageIds) wanted.page.add(page.page);
    const file = link.target.kind === 'file' ? refField(link.target, 'file') : undefined;
    if (file !== undefined) wanted.file.add(file);
    const reusable = reusableContentTarget(link, source);
    if (reusable && !reusable.space) wanted['reusable-content'].add(reusable.reusableContent);
  }
  const kinds = Object.entries(wanted).filter(([, ids]) => ids.size);
  const found = { page: new Set<string>(), file: new Set<string>(), 'reusable-content': new Set<string>() };
  if (kinds.length) {
    const ids = [...new Set(kinds.flatMap(([, set]) => [...set]))];
    const rows = await db.$queryRaw<{ kind: keyof typeof found; entityId: string }[]>(sql`SELECT e."kind", e."entityId" FROM (${visibleEntries(scope, [
      sql`e."kind" = ANY(${kinds.map(([kind]) => kind)}::text[])`,
      sql`e."entityId" = ANY(${ids}::text[])`,
    ])}) e`);
    for (const row of rows) if (wanted[row.kind]?.has(row.entityId)) found[row.kind].add(row.entityId);
  }
  return { pageIds: pageIds ?? found.page, fileIds: found.file, reusableContentIds: found['reusable-content'] };
}
