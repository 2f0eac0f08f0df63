/**
 * Site redirects on the published site: a path that names no page of the site is looked up
 * among the site's live redirects (one statement on an index, only then: a page that exists is
 * served, never redirected). A redirect to a section, site space or page answers that part's URL
 * as it is now (a renamed or moved page is followed); to an outside URL, that URL. A wildcard's
 * matched suffix is appended when `captureWildcard` is set.
 */
import type { Db } from '../db/client.js';
import type { Site, SiteRedirect } from '../generated/prisma/client.js';
import { liveRedirectFor, wildcardSuffix, type RedirectDestination } from '../domain/publishing/sites/structure/redirects.js';
import { revisionScope } from '../domain/versions/revisions/load.js';
import { pathsOf } from '../domain/versions/revisions/paths.js';
import { entityIn } from '../domain/versions/revisions/read.js';
import { sectionBaseUrl, siteSpaceBaseUrl } from './urls.js';
import type { Reply } from './reply.js';

type SiteUrlFields = Pick<Site, 'id' | 'hostname' | 'hostnameVerifiedAt' | 'defaultSectionId' | 'defaultSiteSpaceId'>;

/** Where a destination points now (null: the section, site space or page it named is gone). */
export async function destinationUrl(db: Db, publicUrl: string, site: SiteUrlFields, destination: RedirectDestination): Promise<string | null> {
  switch (destination.kind) {
    case 'external':
      return destination.url;
    case 'site-section': {
      const section = await db.siteSection.findFirst({ where: { id: destination.siteSectionId, siteId: site.id } });
      return section ? `${sectionBaseUrl(publicUrl, site, section)}/` : null;
    }
    case 'site-space':
    case 'site-page': {
      const siteSpace = await db.siteSpace.findFirst({ where: { id: destination.siteSpaceId, siteId: site.id }, include: { section: true, space: { select: { revisionId: true } } } });
      if (!siteSpace) return null;
      const base = siteSpaceBaseUrl(publicUrl, site, siteSpace.section, siteSpace);
      if (destination.kind === 'site-space') return `${base}/`;
      const scope = await revisionScope(db, siteSpace.space.revisionId);
      const page = await entityIn(db, scope, 'page', destination.pageId);
      if (!page) return `${base}/`;
      const path = (await pathsOf(db, scope, [page])).get(page.entityId) ?? '';
      return `${base}/${path.split('/').map(encodeURIComponent).join('/')}`;
    }
  }
}

/** The URL a redirect sends `path` to (the wildcard's suffix appended when it captures it). */
export async function redirectTarget(db: Db, publicUrl: string, site: SiteUrlFields, redirect: SiteRedirect, path: string): Promise<string | null> {
  const url = await destinationUrl(db, publicUrl, site, redirect.destination as RedirectDestination);
  if (url === null || !redirect.captureWildcard) return url;
  const suffix = wildcardSuffix(redirect.source, path).replace(/^\/+/, '');
  if (!suffix) return url;
  const [head, query] = [url.replace(/[?#].*$/, ''), url.slice(url.replace(/[?#].*$/, '').length)];
  return `${head.replace(/\/+$/, '')}/${suffix}${query}`;
}

/**
 * The redirect answering `path` (under the site, `/a/b`), or null. Permanent redirects answer 308
 * on a public or unlisted site and 307 elsewhere (as the public document says); others 307.
 */
export async function redirectReply(db: Db, publicUrl: string, site: Site, path: string): Promise<(Reply & { location: string }) | null> {
  const normalized = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const redirect = await liveRedirectFor(db, site.id, normalized);
  if (!redirect) return null;
  const location = await redirectTarget(db, publicUrl, site, redirect, normalized);
  if (!location) return null;
  const open = site.visibility === 'public' || site.visibility === 'unlisted';
  // Within quire's own origin, the path alone: right whichever address the reader used.
  const origin = new URL(publicUrl).origin;
  return {
    status: redirect.permanent && open ? 308 : 307,
    location: location.startsWith(`${origin}/`) ? location.slice(origin.length) : location,
    body: '',
    type: 'text/plain; charset=utf-8',
    cache: open ? 'public, max-age=60' : 'private, no-cache',
  };
}
