/**
 * What a URL shows, resolved without fetching it (the public document's `urls` operations):
 * - a published site's URL (`{QUIRE_PUBLIC_URL}/sites/{siteId}/…`, or a verified custom hostname)
 *   → the site, section, site space, space and page path, as the published server itself locates
 *   them (locate.ts, the visitor's claims deciding conditions), and the anchor (`#…`);
 * - a content URL of this server (the app's `/s/{spaceId}[/~/changes/{changeRequest}][/{page path}]`
 *   and `/c/{collectionId}`, the API's `/v1/spaces/{spaceId}` and `/v1/collections/{collectionId}`)
 *   → the space (change request, page path) or collection.
 * The caller must see what the URL names (a site: `view` on it, SITE_RULES; content: `view`); anything else,
 * another organization's included, is "no content found" (404).
 */
import { jwtVerify } from 'jose';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { Site, SiteSection, SiteSpace } from '../generated/prisma/client.js';
import type { Access } from '../domain/access/access.js';
import { AppError, badRequest, notFound } from '../lib/errors.js';
import { locate } from './locate.js';
import { siteAt } from './site-of-request.js';
import { siteSpaceBaseUrl } from './urls.js';

export type VisitorInput = { jwtToken?: string | null; unsignedClaims?: Record<string, unknown> | null };

export type PublishedResolution = {
  organizationId: string;
  site: Site;
  siteSection: SiteSection | null;
  siteSpace: SiteSpace;
  spaceId: string;
  /** The space's current revision, which the published site shows. */
  revisionId: string;
  /** The page's path in the space (empty: the site space's root, its first page). */
  pathname: string;
  anchor: string | null;
  basePath: string;
  siteBasePath: string;
  canonicalUrl: string;
  shareKey: string | null;
};

/** `revisionId`: the revision the URL shows (the space's current one, or the change request's). */
export type ContentResolution = { organizationId: string; spaceId?: string; collectionId?: string; changeRequestId?: string; revisionId?: string; title: string; pathname: string; anchor: string | null; published?: PublishedResolution };

const URL_MAX = 2048;

/** The URL, or a 400 naming `field`. */
export function parseUrl(raw: string, field = 'url'): URL {
  let url: URL | null = null;
  try {
    url = raw.length <= URL_MAX ? new URL(raw) : null;
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw badRequest(`Invalid value for "${field}": an http(s) URL of at most ${URL_MAX} characters`, field);
  return url;
}

const anchorOf = (url: URL) => {
  try {
    return url.hash.length > 1 ? decodeURIComponent(url.hash.slice(1)) : null;
  } catch {
    return null;
  }
};

const isNotFound = (error: unknown) => error instanceof AppError && error.code === 'NOT_FOUND';
const NO_CONTENT = () => notFound('No content for this URL: content');

/** Claims of the visitor: those of a JWT signed with the site's key (an invalid one counts as none) over the unsigned ones. */
async function claimsOf(site: Site, visitor: VisitorInput | undefined): Promise<Record<string, unknown>> {
  const unsigned = visitor?.unsignedClaims && typeof visitor.unsignedClaims === 'object' ? visitor.unsignedClaims : {};
  if (!visitor?.jwtToken || visitor.jwtToken.length > 8192) return unsigned;
  try {
    const { payload } = await jwtVerify(visitor.jwtToken, new TextEncoder().encode(site.visitorAuthKey), { algorithms: ['HS256'] });
    return { ...unsigned, ...(payload as Record<string, unknown>) };
  } catch {
    return unsigned;
  }
}

/** A published site's URL; null when the URL is not one (of a site this server serves). */
export async function resolvePublished(db: Db, access: Access, config: Config, raw: string, visitor?: VisitorInput): Promise<PublishedResolution | null> {
  const url = parseUrl(raw);
  const ours = url.origin === new URL(config.publicUrl).origin;
  let target;
  try {
    target = ours && !url.pathname.startsWith('/sites/') ? null : await siteAt(db, url.hostname.toLowerCase(), url.pathname, config);
  } catch (error) {
    if (error instanceof URIError) return null;
    throw error;
  }
  if (!target?.site || (target.sitePath && !ours)) return null;
  const { site, sitePath, segments } = target;
  try {
    await access.requireSite(site.id, 'view');
  } catch (error) {
    if (isNotFound(error)) throw NO_CONTENT();
    throw error;
  }
  if (!site.published || segments[0]?.startsWith('~')) throw NO_CONTENT();
  const located = await locate(db, site, segments, await claimsOf(site, visitor));
  if (!located) throw NO_CONTENT();
  const shareKey = url.searchParams.get('shareKey');
  const validKey = shareKey && shareKey.length <= 200 ? await db.siteShareLink.findFirst({ where: { siteId: site.id, key: shareKey, active: true }, select: { key: true } }) : null;
  const basePath = `${sitePath}/${located.prefix.map(encodeURIComponent).join('/')}`.replace(/\/?$/, '/');
  const siteSpaceUrl = siteSpaceBaseUrl(config.publicUrl, site, located.section, located.siteSpace);
  return {
    organizationId: site.organizationId,
    site,
    siteSection: located.section,
    siteSpace: located.siteSpace,
    spaceId: located.siteSpace.spaceId,
    revisionId: located.siteSpace.space.revisionId,
    pathname: located.pagePath,
    anchor: anchorOf(url),
    basePath,
    siteBasePath: `${sitePath}/`,
    canonicalUrl: `${siteSpaceUrl}/${located.pagePath.split('/').map(encodeURIComponent).join('/')}`,
    shareKey: validKey?.key ?? null,
  };
}

/** Resolves a published URL, 404 when it is none. */
export async function resolvePublishedUrl(db: Db, access: Access, config: Config, raw: string, visitor?: VisitorInput): Promise<PublishedResolution> {
  const found = await resolvePublished(db, access, config, raw, visitor);
  if (!found) throw NO_CONTENT();
  return found;
}

const segmentsOf = (pathname: string) => pathname.split('/').filter(Boolean).map((s) => decodeURIComponent(s));

/** A content URL of this server (or a published site's URL: its space and page). */
export async function resolveContentUrl(db: Db, access: Access, config: Config, raw: string): Promise<ContentResolution> {
  const url = parseUrl(raw);
  const anchor = anchorOf(url);
  const published = await resolvePublished(db, access, config, raw);
  try {
    if (published) {
      const { space } = await access.requireSpace(published.spaceId);
      return { organizationId: space.organizationId, spaceId: space.id, revisionId: space.revisionId, title: space.title, pathname: published.pathname, anchor, published };
    }
    const origins = new Set([new URL(config.appUrl).origin, new URL(config.publicUrl).origin]);
    if (!origins.has(url.origin)) throw NO_CONTENT();
    const appBase = new URL(config.appUrl).pathname.replace(/\/$/, '');
    const path = url.pathname.startsWith(`${appBase}/`) ? url.pathname.slice(appBase.length) : url.pathname;
    const segments = segmentsOf(path);
    const api = segments[0] === 'v1';
    const [kind, id, ...rest] = api ? segments.slice(1) : segments;
    if (id && (api ? kind === 'collections' : kind === 'c')) {
      const { collection } = await access.requireCollection(id);
      return { organizationId: collection.organizationId, collectionId: collection.id, title: collection.title, pathname: '', anchor };
    }
    if (id && (api ? kind === 'spaces' : kind === 's')) {
      const { space } = await access.requireSpace(id);
      let changeRequest: { id: string; revisionId: string } | undefined;
      if (!api && rest[0] === '~' && rest[1] === 'changes' && rest[2]) {
        changeRequest = (await access.requireChangeRequest(space.id, rest[2])).changeRequest;
        rest.splice(0, 3);
      }
      const revisionId = changeRequest?.revisionId ?? space.revisionId;
      return { organizationId: space.organizationId, spaceId: space.id, changeRequestId: changeRequest?.id, revisionId, title: space.title, pathname: api ? '' : rest.join('/'), anchor };
    }
  } catch (error) {
    if (isNotFound(error) || error instanceof URIError) throw NO_CONTENT();
    throw error;
  }
  throw NO_CONTENT();
}

/**
 * The public document's `Embed` of a URL, without fetching it: for content of this server the
 * caller may read, a link titled with its page (or space, or collection) and its site's (or
 * organization's) name; for any other URL, a link titled with the URL and named by its host.
 * `pageTitle` finds a page's title in a revision.
 */
export async function embedOf(
  db: Db,
  access: Access,
  config: Config,
  raw: string,
  names: { pageTitle: (revisionId: string, path: string) => Promise<string | null>; organizationTitle: (organizationId: string) => Promise<string | null> },
): Promise<{ type: 'link'; title: string; site: string; url: string }> {
  const url = parseUrl(raw);
  let content: ContentResolution | null = null;
  try {
    content = await resolveContentUrl(db, access, config, raw);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  if (!content) return { type: 'link', title: url.href, site: url.hostname, url: url.href };
  const page = content.revisionId && content.pathname ? await names.pageTitle(content.revisionId, content.pathname) : null;
  const site = content.published?.site.title ?? (await names.organizationTitle(content.organizationId)) ?? url.hostname;
  return { type: 'link', title: page ?? content.title, site, url: url.href };
}
