/** The search page of a published site: the organization search over the site spaces shown to the visitor, beside the site space's navigation. */
import type { RequestTarget } from '../http/request-target.js';
import type { Site } from '../generated/prisma/client.js';
import { searchOrganization } from '../domain/versions/search/query.js';
import type { Located } from './locate.js';
import { frame, frameEtagParts } from './frame.js';
import { revisionNavigation } from './page-content.js';
import { renderSearchPage } from './render/index.js';
import { cacheFor, etagOf, type Reply } from './reply.js';
import type { PublishedDeps } from './deps.js';
import type { Visitor } from './visitor.js';

/**
 * The results depend only on what the frame depends on (the site spaces' revisions, the visitor:
 * frameEtagParts) and the query: a revalidation the client can skip (`ifNoneMatch` equal) answers
 * 304 without searching, as a page's does (page-reply.ts).
 */
export async function searchReply(deps: PublishedDeps, site: Site, sitePath: string, located: Located, visitor: Visitor, url: RequestTarget, ifNoneMatch?: string): Promise<Reply> {
  const query = (url.searchParams.get('q') ?? '').slice(0, 512);
  const etag = etagOf([...frameEtagParts(site, sitePath, located, visitor), 'search', query]);
  const cache = cacheFor(site, visitor);
  if (ifNoneMatch === etag) return { status: 200, body: '', type: 'text/html; charset=utf-8', etag, cache };
  const { view, hrefOf } = frame(site, sitePath, located, visitor);
  const spaces = new Map(located.siteSpaces.map((ss) => [ss.space.id, ss]));
  let results: { title: string; href: string; snippet?: string; section?: string }[] = [];
  if (query.trim()) {
    const hits = await searchOrganization(deps.db, { spaceIds: [...spaces.keys()] }, site.organizationId, query, { first: 20 });
    const { sectionPrefix } = located;
    results = hits.rows.flatMap((space) => {
      const ss = spaces.get(space.id)!;
      const isDefault = ss.id === (located.section ? located.section.defaultSiteSpaceId : site.defaultSiteSpaceId);
      const base = [sitePath, ...sectionPrefix.map(encodeURIComponent), ...(isDefault ? [] : [encodeURIComponent(ss.path)])].join('/');
      return space.pages.map((page) => ({
        title: page.title,
        href: `${base}/${page.path.split('/').map(encodeURIComponent).join('/')}`,
        snippet: page.sections[0]?.body,
        section: ss.title ?? ss.space.title,
      }));
    });
  }
  // The site space's navigation stays beside the results, as on its pages.
  const nav = await revisionNavigation(deps.db, located.siteSpace.space.revisionId, hrefOf);
  const body = renderSearchPage({ ...view, nav, query, results });
  return { status: 200, body, type: 'text/html; charset=utf-8', etag, cache };
}

