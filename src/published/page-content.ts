/**
 * One page of a published space's current revision, ready to render: the page (by path, or the
 * space's first page), its body, the navigation, and what its links and files point at. Reads
 * only what the page shows — the top level, the branch down to the page, the pages and files
 * its body names — never the whole revision, whatever the size of the space.
 */
import type { Db } from '../db/client.js';
import type { JSONDocument } from '../lib/documents/types.js';
import { documentLinkRows } from '../lib/documents/extract-links.js';
import type { Entry, FileData, PageEntry } from '../domain/versions/revisions/entries.js';
import { pageData } from '../domain/versions/revisions/entries.js';
import { revisionScope } from '../domain/versions/revisions/load.js';
import { childPages } from '../domain/versions/revisions/read.js';
import { linkRows, MAX_PAGE_DEPTH, pageRows } from './page-rows.js';
import { cachedRevisionScope } from './revision-scopes.js';
import type { RevisionScope } from '../domain/versions/revisions/scope.js';
import { bySiblingOrder, joinPath } from '../domain/versions/revisions/tree.js';
import type { NavItem } from './render/index.js';

export type PageContent = {
  page: PageEntry;
  path: string;
  document: JSONDocument;
  nav: NavItem[];
  /** Paths and titles of the pages the body links to, by ID. */
  pagePaths: Map<string, string>;
  pageTitles: Map<string, string>;
  files: Map<string, { name: string; data: FileData }>;
  previous?: { title: string; href: string };
  next?: { title: string; href: string };
};

const visible = (page: PageEntry) => !pageData(page).hidden;

/** The first page a reader lands on: the first document page, looking into groups. */
async function firstPage(db: Db, scope: RevisionScope): Promise<{ page: PageEntry; path: string } | null> {
  let parents: (string | null)[] = [null];
  let base = new Map<string | null, string>([[null, '']]);
  for (let depth = 0; depth < 3 && parents.length; depth++) {
    const level = (await childPages(db, scope, parents)).filter(visible).sort(bySiblingOrder);
    const document = level.find((p) => p.type === 'document');
    if (document) return { page: document, path: joinPath(base.get(document.parentId) ?? '', document.slug) };
    const groups = level.filter((p) => p.type === 'group');
    base = new Map(groups.map((g) => [g.entityId, joinPath(base.get(g.parentId) ?? '', g.slug)]));
    parents = groups.map((g) => g.entityId);
  }
  return null;
}

/**
 * The top level, the pages of its groups (a group is a heading over its pages: shown whole from
 * every page, or a visitor on the home page could not find them), and the children of each page
 * on the way down to the last of `chain` (and of that page itself). Two reads, whatever the size
 * of the space: the top level, then the children of the groups and of the chain.
 */
export async function navigation(db: Db, scope: RevisionScope, chain: PageEntry[], hrefOf: (path: string) => string): Promise<NavItem[]> {
  const top = (await childPages(db, scope, [null])).filter(visible);
  const open = [...new Set([...top.filter((p) => p.type === 'group').map((p) => p.entityId), ...chain.map((p) => p.entityId)])];
  return navigationOf([...top, ...(open.length ? await childPages(db, scope, open) : [])], chain, hrefOf);
}

/** The navigation made of `pages` (those navigation() reads), the last of `chain` current. */
function navigationOf(pages: PageEntry[], chain: PageEntry[], hrefOf: (path: string) => string): NavItem[] {
  const children = new Map<string | null, PageEntry[]>();
  for (const page of pages.filter(visible)) children.set(page.parentId, [...(children.get(page.parentId) ?? []), page]);
  const current = chain[chain.length - 1]?.entityId;
  const build = (parentId: string | null, basePath: string): NavItem[] =>
    (children.get(parentId) ?? []).sort(bySiblingOrder).map((page) => {
      const path = joinPath(basePath, page.slug);
      const emoji = pageData(page).emoji;
      return {
        title: page.title,
        kind: page.type === 'group' ? 'group' : page.type === 'link' ? 'link' : 'page',
        ...(page.type === 'document' ? { href: hrefOf(path) } : {}),
        ...(emoji ? { emoji } : {}),
        ...(page.entityId === current ? { current: true } : {}),
        children: build(page.entityId, path),
      };
    });
  return build(null, '');
}

/** The navigation of a revision seen from no page in particular (the search page, a missing page). */
export async function revisionNavigation(db: Db, revisionId: string, hrefOf: (path: string) => string): Promise<NavItem[]> {
  return navigation(db, await revisionScope(db, revisionId), [], hrefOf);
}

/** Previous and next document pages in reading order, among what the navigation holds. */
function neighbours(nav: NavItem[]): { previous?: NavItem; next?: NavItem } {
  const flat: NavItem[] = [];
  const walk = (items: NavItem[]) => items.forEach((item) => (item.kind === 'page' && flat.push(item), walk(item.children)));
  walk(nav);
  const at = flat.findIndex((item) => item.current);
  return at < 0 ? {} : { previous: flat[at - 1], next: flat[at + 1] };
}

/** The path of the first page a reader lands on, found among the navigation's pages (the top level and its groups' pages), else looked for deeper. */
async function firstPath(db: Db, scope: RevisionScope, nav: PageEntry[]): Promise<string | null> {
  const shown = nav.filter(visible).sort(bySiblingOrder);
  const top = shown.filter((p) => p.parentId === null);
  const document = top.find((p) => p.type === 'document');
  if (document) return document.slug;
  for (const group of top.filter((p) => p.type === 'group')) {
    const inside = shown.find((p) => p.parentId === group.entityId && p.type === 'document');
    if (inside) return joinPath(group.slug, inside.slug);
  }
  return (await firstPage(db, scope))?.path ?? null;
}

/**
 * The page at `pagePath` (empty: the first page) of the revision, or null when there is none. At
 * most four statements, whatever the size of the space: the revision's place (once per revision,
 * revision-scopes.ts), the page with its path and navigation (page-rows.ts; the first page costs
 * one more, to find its path), and what its body links to.
 */
export async function pageContent(db: Db, revisionId: string, pagePath: string, hrefOf: (path: string) => string): Promise<PageContent | null> {
  const scope = await cachedRevisionScope(db, revisionId);
  const path = pagePath || (await firstPath(db, scope, (await pageRows(db, scope, [])).nav));
  const segments = (path ?? '').split('/').filter(Boolean);
  if (!segments.length || segments.length > MAX_PAGE_DEPTH) return null;
  const rows = await pageRows(db, scope, segments);
  const page = rows.chain.length === segments.length ? rows.chain[rows.chain.length - 1] : undefined;
  if (!page || page.type !== 'document' || !page.documentId) return null;
  const nav = navigationOf(rows.nav, rows.chain, hrefOf);
  const document = rows.body ?? { object: 'document', data: {}, nodes: [] };

  const links = documentLinkRows(document);
  const targets = (kinds: string[]) => [...new Set(links.filter((l) => kinds.includes(l.kind)).flatMap((l) => (l.target ? [l.target] : [])))];
  const pageIds = targets(['page', 'anchor']);
  const fileIds = targets(['file']);
  const found = await linkRows(db, scope, [...new Set([...pageIds, ...fileIds])]);
  const linked = found.filter((e) => e.kind === 'page' && pageIds.includes(e.entityId));
  const files = found.filter((e) => e.kind === 'file' && fileIds.includes(e.entityId));
  const pagePaths = pathsAmong(found.filter((e) => e.kind === 'page'), linked);
  const { previous, next } = neighbours(nav);
  const linkOf = (item?: NavItem) => (item?.href ? { title: item.title, href: item.href } : undefined);
  return {
    page,
    path: segments.join('/'),
    document: document as JSONDocument,
    nav,
    pagePaths,
    pageTitles: new Map(linked.map((p) => [p.entityId, p.title])),
    files: new Map(files.map((f) => [f.entityId, { name: f.title, data: f.data as unknown as FileData }])),
    previous: linkOf(previous),
    next: linkOf(next),
  };
}

/** The paths of `pages`, their ancestors being among `known`. */
function pathsAmong(known: Entry[], pages: Entry[]): Map<string, string> {
  const byId = new Map(known.map((e) => [e.entityId, e]));
  return new Map(
    pages.map((page) => {
      const slugs: string[] = [];
      const seen = new Set<string>();
      for (let at: Entry | undefined = page; at && !seen.has(at.entityId); at = at.parentId ? byId.get(at.parentId) : undefined) (seen.add(at.entityId), slugs.unshift(at.slug));
      return [page.entityId, slugs.filter(Boolean).join('/')];
    }),
  );
}
