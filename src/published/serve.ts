/**
 * The published sites, served by quire itself: `GET /sites/{siteId}/…` (or `/…` on a site's own
 * hostname). Server-rendered HTML of the site spaces' current revisions, with the site's
 * customization, navigation, section tabs and variants, a search page (`~search?q=`), files
 * (`~files/{siteSpaceId}/{fileId}`), the stylesheet (`~assets/site.css`), `robots.txt` and
 * `sitemap.xml` (public sites).
 *
 * Visibility is enforced on every request (visitor.ts). Answers carry an `ETag` made of what they
 * depend on (site, structure, revisions, customization, the visitor's claims), and
 * `Cache-Control`: public sites may be cached by a CDN for a minute, others only by the browser.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { Site } from '../generated/prisma/client.js';
import { blobStore } from '../domain/files/blob-store.js';
import { entityIn } from '../domain/revisions/read.js';
import { revisionScope } from '../domain/revisions/load.js';
import type { FileData } from '../domain/revisions/entries.js';
import { searchOrganization } from '../domain/search/query.js';
import { effectiveCustomization } from '../domain/sites/customization.js';
import type { SiteCustomization } from '../domain/sites/customization-defaults.js';
import { PUBLISHED_PREFIX } from '../domain/sites/published-urls.js';
import type { Logger } from '../observability/logger.js';
import { locate, type Located } from './locate.js';
import { pageContent } from './page-content.js';
import { renderDocumentWithOutline, renderMessagePage, renderPage, renderSearchPage, SITE_CSS, type MessagePageView, type PageView } from './render/index.js';
import { siteView } from './site-view.js';
import { robotsTxt, sitemapXml } from './sitemap.js';
import { admitVisitor, type Visitor } from './visitor.js';

export type PublishedDeps = { db: Db; config: Config; logger: Logger };

/** Bumped when the HTML changes shape, so cached answers of an older quire are not reused. */
const RENDER_VERSION = '1';

type Reply = { status: number; body: string | Buffer; type: string; etag?: string; cache: string; cookies?: string[] };

function send(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string | string[]> = { 'content-type': reply.type, 'cache-control': reply.cache, 'x-content-type-options': 'nosniff' };
  if (reply.etag) headers.etag = reply.etag;
  if (reply.cookies?.length) headers['set-cookie'] = reply.cookies;
  if (reply.type.startsWith('text/html')) headers['content-security-policy'] = "default-src 'self'; img-src * data:; style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; frame-ancestors 'self'";
  if (reply.etag && reply.status === 200 && req.headers['if-none-match'] === reply.etag) {
    res.writeHead(304, headers);
    return void res.end();
  }
  res.writeHead(reply.status, headers);
  res.end(req.method === 'HEAD' ? undefined : reply.body);
}

const etagOf = (parts: unknown[]) => `"${createHash('sha256').update(JSON.stringify([RENDER_VERSION, ...parts])).digest('base64url').slice(0, 27)}"`;

/** What an answer for this visitor may be cached as. */
const cacheFor = (site: Site) => (site.visibility === 'public' || site.visibility === 'unlisted' ? 'public, max-age=60, stale-while-revalidate=300' : 'private, no-cache');

function messageView(site: Site | null, lang = 'en'): MessagePageView {
  return { lang, site: { title: site?.title ?? 'Not found', headerLinks: [], footer: { groups: [] }, colors: { primary: { light: '#346DDB', dark: '#346DDB' } }, theme: { default: 'light', toggleable: false } } };
}

const message = (site: Site | null, status: 401 | 404, text: string): Reply => ({ status, body: renderMessagePage(messageView(site), status, text), type: 'text/html; charset=utf-8', cache: 'no-store' });

const SITE_HOST = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;

/** Which site answers on a hostname (null: none), remembered for a few seconds. */
const hostSites = new LRUCache<string, string>({ max: 10_000, ttl: 10_000, allowStale: false });
const NO_SITE = '';

/** The site a request names, and the rest of its path (segments, decoded). */
async function siteOf(db: Db, req: IncomingMessage, pathname: string, config: Config): Promise<{ site: Site | null; sitePath: string; segments: string[] } | null> {
  const decode = (s: string) => decodeURIComponent(s);
  if (pathname.startsWith(`${PUBLISHED_PREFIX}/`)) {
    const [siteId = '', ...segments] = pathname.slice(PUBLISHED_PREFIX.length + 1).split('/').filter(Boolean).map(decode);
    const site = siteId.length <= 64 ? await db.site.findUnique({ where: { id: siteId } }) : null;
    return { site, sitePath: `${PUBLISHED_PREFIX}/${siteId}`, segments };
  }
  const host = (req.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
  // Site hostnames have three labels or more (the public document's pattern): any other host
  // (the API's own, an address, localhost) is not looked up.
  if (!SITE_HOST.test(host) || host === new URL(config.publicUrl).hostname) return null;
  let siteId = hostSites.get(host);
  if (siteId === undefined) hostSites.set(host, (siteId = (await db.site.findUnique({ where: { hostname: host }, select: { id: true } }))?.id ?? NO_SITE));
  const site = siteId ? await db.site.findUnique({ where: { id: siteId } }) : null;
  return site ? { site, sitePath: '', segments: pathname.split('/').filter(Boolean).map(decode) } : null;
}

/** Whether a request is for a published site (a path under /sites/, or a host that is a site's). */
export function isPublishedPath(pathname: string): boolean {
  return pathname === PUBLISHED_PREFIX || pathname.startsWith(`${PUBLISHED_PREFIX}/`);
}

export async function servePublished(req: IncomingMessage, res: ServerResponse, deps: PublishedDeps): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://x');
  let target;
  try {
    target = await siteOf(deps.db, req, url.pathname, deps.config);
  } catch (error) {
    if (error instanceof URIError) return (send(req, res, message(null, 404, 'This page does not exist.')), true);
    throw error;
  }
  if (!target) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method not allowed');
    return true;
  }
  const { site, sitePath, segments } = target;
  if (!site || !site.published) return (send(req, res, message(null, 404, 'This site does not exist, or is not published.')), true);
  if (segments[0] === '~assets' && segments[1] === 'site.css') {
    send(req, res, { status: 200, body: SITE_CSS, type: 'text/css; charset=utf-8', etag: etagOf(['css']), cache: 'public, max-age=3600' });
    return true;
  }
  const origin = sitePath ? new URL(deps.config.publicUrl).origin : `${new URL(deps.config.publicUrl).protocol}//${site.hostname}`;
  if (segments.length === 1 && segments[0] === 'robots.txt') {
    send(req, res, { status: 200, body: robotsTxt(site, origin, sitePath), type: 'text/plain; charset=utf-8', cache: cacheFor(site) });
    return true;
  }
  if (segments.length === 1 && segments[0] === 'sitemap.xml') {
    if (site.visibility !== 'public') return (send(req, res, message(site, 404, 'This site is not indexed.')), true);
    send(req, res, { status: 200, body: await sitemapXml(deps.db, site, origin, sitePath), type: 'application/xml; charset=utf-8', cache: cacheFor(site) });
    return true;
  }
  const admission = await admitVisitor(deps.db, site, req, url, sitePath || '/');
  if (!admission.ok) {
    send(req, res, message(site, admission.status, admission.status === 401 ? 'This site is for signed-in visitors: open it from the link you were given.' : 'This site does not exist, or is not published.'));
    return true;
  }
  const { visitor } = admission;
  if (segments[0] === '~files') return (await serveFile(req, res, deps, site, visitor, segments.slice(1)), true);
  const searching = segments[0] === '~search';
  const located = await locate(deps.db, site, searching ? segments.slice(1) : segments, visitor.claims);
  if (!located) return (send(req, res, message(site, 404, 'This site has no content yet.')), true);
  const reply = searching ? await searchReply(deps, site, sitePath, located, visitor, url) : await pageReply(deps, site, sitePath, located, visitor);
  send(req, res, { ...reply, cookies: visitor.cookies });
  return true;
}

/** What every page of the site space shares: links, the site's look, its tabs and variants. */
function frame(deps: PublishedDeps, site: Site, sitePath: string, located: Located, visitor: Visitor) {
  const { section, siteSpace } = located;
  const join = (...parts: string[]) => `${sitePath}/${parts.filter(Boolean).map(encodeURIComponent).join('/')}`;
  const { sectionPrefix, prefix: spacePrefix } = located;
  const hrefOf = (pagePath: string) => `${join(...spacePrefix)}${pagePath ? `/${pagePath.split('/').map(encodeURIComponent).join('/')}` : ''}`.replace(/\/\/+/g, '/');
  const customization = effectiveCustomization(site.customization as unknown as SiteCustomization, siteSpace.customization as never, siteSpace.space.title);
  const lang = customization.internationalization.locale || 'en';
  const view = {
    lang,
    site: siteView(customization, site.title, join(), visitor.claims),
    sections: located.sections.map((s) => ({ title: s.title, href: join(s.id === site.defaultSectionId ? '' : s.path), current: s.id === section?.id })),
    variants:
      located.siteSpaces.length > 1
        ? located.siteSpaces.map((ss) => {
            const isDefault = ss.id === (section ? section.defaultSiteSpaceId : site.defaultSiteSpaceId);
            return { title: ss.title ?? ss.space.title, href: join(...sectionPrefix, isDefault ? '' : ss.path), current: ss.id === siteSpace.id };
          })
        : [],
    searchAction: join('~search', ...spacePrefix),
    noindex: site.visibility !== 'public',
    stylesheetUrl: join('~assets', 'site.css'),
  };
  const etagParts = [site.id, site.updatedAt, site.defaultSectionId, site.defaultSiteSpaceId, located.sections.map((s) => [s.id, s.updatedAt, s.defaultSiteSpaceId]), located.siteSpaces.map((ss) => [ss.id, ss.updatedAt, ss.space.revisionId, ss.space.updatedAt]), visitor.claims, visitor.shareKey ?? null];
  return { view, hrefOf, etagParts, customization };
}

async function pageReply(deps: PublishedDeps, site: Site, sitePath: string, located: Located, visitor: Visitor): Promise<Reply> {
  const { view, hrefOf, etagParts } = frame(deps, site, sitePath, located, visitor);
  const { siteSpace } = located;
  const content = await pageContent(deps.db, siteSpace.space.revisionId, located.pagePath, hrefOf);
  if (!content) return { ...message(site, 404, 'This page does not exist.'), cache: 'no-store' };
  const fileBase = `${sitePath}/~files/${encodeURIComponent(siteSpace.id)}`;
  const rendered = renderDocumentWithOutline(content.document, {
    lang: view.lang,
    pageUrl: (pageId, anchor) => {
      const path = pageId === content.page.entityId ? content.path : content.pagePaths.get(pageId);
      return path === undefined ? undefined : `${hrefOf(path)}${anchor ? `#${encodeURIComponent(anchor)}` : ''}`;
    },
    refTitle: (ref) => (typeof ref.page === 'string' ? (ref.page === content.page.entityId ? content.page.title : content.pageTitles.get(ref.page)) : undefined),
    fileUrl: (fileId) => {
      const file = content.files.get(fileId);
      return file && { url: `${fileBase}/${encodeURIComponent(fileId)}`, name: file.name, contentType: file.data.contentType, size: file.data.size };
    },
  });
  const pageView: PageView = {
    ...view,
    nav: content.nav,
    page: { title: content.page.title, description: (content.page.data as { description?: string }).description, bodyHtml: rendered.html, headings: rendered.headings },
    previous: content.previous,
    next: content.next,
  };
  return { status: 200, body: renderPage(pageView), type: 'text/html; charset=utf-8', etag: etagOf([...etagParts, content.page.entityId, content.path]), cache: cacheFor(site) };
}

async function searchReply(deps: PublishedDeps, site: Site, sitePath: string, located: Located, visitor: Visitor, url: URL): Promise<Reply> {
  const { view, etagParts } = frame(deps, site, sitePath, located, visitor);
  const query = (url.searchParams.get('q') ?? '').slice(0, 512);
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
  const body = renderSearchPage({ ...view, nav: [], query, results });
  return { status: 200, body, type: 'text/html; charset=utf-8', etag: etagOf([...etagParts, 'search', query]), cache: cacheFor(site) };
}

/** A file of a site space's current revision, to visitors of the site. */
async function serveFile(req: IncomingMessage, res: ServerResponse, deps: PublishedDeps, site: Site, visitor: Visitor, [siteSpaceId, fileId]: string[]): Promise<void> {
  const siteSpace = siteSpaceId && fileId ? await deps.db.siteSpace.findFirst({ where: { id: siteSpaceId, siteId: site.id }, include: { space: true } }) : null;
  const file = siteSpace && !siteSpace.space.deletedAt ? await entityIn(deps.db, await revisionScope(deps.db, siteSpace.space.revisionId), 'file', fileId) : null;
  const data = file?.data as unknown as FileData | undefined;
  const stream = data && (await blobStore(deps.config.dataDir).open(data.storageKey));
  if (!file || !data || !stream) return send(req, res, { ...message(site, 404, 'This file does not exist.'), cookies: visitor.cookies });
  const etag = `"${data.storageKey.slice(0, 32)}"`;
  if (req.headers['if-none-match'] === etag) {
    stream.destroy();
    res.writeHead(304, { etag, 'cache-control': cacheFor(site) }).end();
    return;
  }
  res.writeHead(200, {
    'content-type': data.contentType,
    'content-length': String(data.size),
    'content-disposition': `${data.contentType.startsWith('image/') ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.title)}`,
    'cache-control': cacheFor(site),
    'x-content-type-options': 'nosniff',
    // Served from the site's origin: an uploaded SVG or HTML must not run script there.
    'content-security-policy': 'sandbox; default-src none; style-src unsafe-inline',
    etag,
  });
  if (req.method === 'HEAD') return void (stream.destroy(), res.end());
  stream.pipe(res);
}
