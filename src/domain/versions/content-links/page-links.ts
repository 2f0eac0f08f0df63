/**
 * A page's outgoing links in a revision (API 4.7 `…/content/page/{pageId}/links`): the references
 * of its document's links, read from "DocumentLink" rows, or a link page's target; each with its
 * status. Deciding statuses looks up only what the links name (pages, files and reusable contents
 * of the revision, spaces, collections, members...), never the whole revision.
 */
import { stringify } from 'safe-stable-stringify';
import { Prisma, type Space } from '../../../generated/prisma/client.js';
import type { Loaders } from '../../loaders/index.js';
import type { Queryable } from '../../kernel/pagination/keyset.js';
import type { PageEntry } from '../revisions/entries.js';
import { isOverlay, type RevisionScope } from '../revisions/scope.js';
import { visibleEntries } from '../revisions/visible.js';
import type { ContentRef } from '../../../lib/documents/content-ref.js';
import type { LinkLocation, PageLink } from '../../../lib/documents/extract-links.js';
import { namedInRevision, pageLinksOf, type LinkSource } from './revision-links.js';
import { brokenIn } from './stats.js';
import { withStatuses, type BaseUrls, type ContentLink } from './status.js';

const { sql } = Prisma;

/**
 * API `ContentReferencesStats`. `broken.changeRequest`, for a page of a change request's revision
 * only: how many of its broken links the change request broke, i.e. that are not broken links of
 * the same page (same reference) in the space revision the request is based on.
 */
export type PageLinkStats = { total: number; broken: { total: number; changeRequest?: number } };

export type PageLinks = { links: ContentLink[]; stats: PageLinkStats };

/** The page as read from a revision: its entry and its complete path. */
export type LinkingPage = { entry: PageEntry; path: string };

/** The references of a document's links, in document order. */
async function documentRefs(db: Queryable, documentId: string | null): Promise<ContentRef[]> {
  if (!documentId) return [];
  const rows = await db.$queryRaw<{ ref: ContentRef }[]>(sql`SELECT "ref" FROM "DocumentLink" WHERE "documentId" = ${documentId} ORDER BY "ordinal"`);
  return rows.map((r) => r.ref);
}

/** The space revision a change request's revision is laid over (`id` is the request's: only the rows it sees matter here). */
const baseOf = (scope: RevisionScope): RevisionScope => ({ id: scope.id, spaceId: scope.spaceId, lineId: scope.spaceId, seq: scope.baseSeq!, baseSeq: null });

/** The page's links in the base revision (null: not there): one statement, the page with its document's links. */
async function baseLinks(db: Queryable, scope: RevisionScope, pageId: string, location: LinkLocation): Promise<PageLink[] | null> {
  const rows = await db.$queryRaw<(Pick<PageEntry, 'type' | 'data'> & { ref: ContentRef | null })[]>(sql`SELECT e."type", e."data", l."ref"
    FROM (${visibleEntries(baseOf(scope), [sql`e."kind" = 'page'`, sql`e."entityId" = ${pageId}`])}) e
    LEFT JOIN "DocumentLink" l ON e."type" = 'document' AND l."documentId" = e."documentId"
    ORDER BY l."ordinal"`);
  if (!rows.length) return null;
  return pageLinksOf(rows[0], location, rows.flatMap((r) => (r.ref ? [r.ref] : [])));
}

/** Broken links of `links` that are not matched, one for one by reference, by broken links of `before`. */
function newlyBroken(links: readonly ContentLink[], before: readonly ContentLink[]): number {
  const remaining = new Map<string, number>();
  for (const link of before) if (link.status === 'broken') remaining.set(stringify(link.target)!, (remaining.get(stringify(link.target)!) ?? 0) + 1);
  let count = 0;
  for (const link of links) {
    if (link.status !== 'broken') continue;
    const key = stringify(link.target)!;
    const left = remaining.get(key) ?? 0;
    if (left) remaining.set(key, left - 1);
    else count++;
  }
  return count;
}

/** The page's links with their statuses, in document order, and their stats. */
export async function pageLinks(db: Queryable, loaders: Loaders, urls: BaseUrls, space: Pick<Space, 'id' | 'organizationId'>, scope: RevisionScope, page: LinkingPage): Promise<PageLinks> {
  const location = { page: page.entry.entityId, path: page.path };
  const overlay = isOverlay(scope) && scope.baseSeq !== null;
  const [links, before] = await Promise.all([
    (async () => pageLinksOf(page.entry, location, page.entry.type === 'document' ? await documentRefs(db, page.entry.documentId) : []))(),
    overlay ? baseLinks(db, scope, page.entry.entityId, location) : Promise.resolve(null),
  ]);
  const sourceOf = async (revision: RevisionScope, of: PageLink[]): Promise<LinkSource> => ({ space, links: of, ...(await namedInRevision(db, revision, space, of)) });
  const sources = await Promise.all([sourceOf(scope, links), ...(before ? [sourceOf(baseOf(scope), before)] : [])]);
  const [resolved, resolvedBefore] = await withStatuses(loaders, urls, sources, db);
  const broken = brokenIn(resolved);
  return {
    links: resolved,
    stats: { total: resolved.length, broken: { total: broken, ...(overlay ? { changeRequest: newlyBroken(resolved, resolvedBefore ?? []) } : {}) } },
  };
}
