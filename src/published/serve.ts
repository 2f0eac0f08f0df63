/**
 * The published sites, served by quire itself: `GET /sites/{siteId}/…` (or `/…` on a site's own
 * hostname). Server-rendered HTML of the site spaces' current revisions, with the site's
 * customization, navigation, section tabs and variants, a search page (`~search?q=`), files
 * (`~files/{siteSpaceId}/{fileId}`), assets (`~assets/`: the stylesheet, KaTeX's files, the
 * favicon; see assets.ts), `robots.txt` and `sitemap.xml` (public sites).
 *
 * Visibility is enforced on every request (visitor.ts). Answers carry an `ETag` made of what they
 * depend on (site, structure, revisions, customization, the visitor's claims), and
 * `Cache-Control`: public sites may be cached by a CDN for a minute, others only by the browser.
 * With the app's published cache (cache/published-cache.ts) the site's state and the pages
 * rendered from it are kept in memory, and a warm page is answered without reading the database.
 */
import { requestTarget } from '../http/request-target.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PublishedDeps } from './deps.js';
import { serveFile } from './files.js';
import { locate, locateIn } from './locate.js';
import { pageKey, type CachedPage, type PublishedCache } from './cache/published-cache.js';
import { chosenEncoding } from '../http/content-encoding.js';
import type { SiteState } from './cache/site-state.js';
import { pageReply } from './page-reply.js';
import { serveAsset } from './assets.js';
import { cacheFor, message, send, type Reply } from './reply.js';
import { redirectReply } from './redirects.js';
import { searchReply } from './search-reply.js';
import { siteOf } from './site-of-request.js';
import { robotsTxt, sitemapXml } from './sitemap.js';
import { admitVisitor } from './visitor.js';
import { previewVisitor } from './preview.js';
import { clientOf } from '../http/client-address.js';

export async function servePublished(req: IncomingMessage, res: ServerResponse, deps: PublishedDeps): Promise<boolean> {
  // The path and query without a URL parse for a plain target (most requests are not a site's).
  const url = requestTarget(req.url ?? '/');
  // Every answer but a page's (kept, and sent compressed as kept) goes through the app's compression.
  const compressed = () => deps.compress?.(req, res);
  const sendCompressed = (answer: Reply) => (compressed(), send(req, res, answer));
  // The site's state, when the cache holds it (or read it now): the site's row comes from it.
  let state: SiteState | null = null;
  const { cache } = deps;
  const siteById = cache && (async (id: string) => (state = await cache.state(id))?.site ?? null);
  let target;
  try {
    target = await siteOf(deps.db, req, url.pathname, deps.config, siteById);
  } catch (error) {
    if (error instanceof URIError) return (sendCompressed(message(null, 404, 'This page does not exist.')), true);
    throw error;
  }
  if (!target) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('Method not allowed');
    return true;
  }
  const { site, sitePath, segments } = target;
  const secure = clientOf(req, deps.config.trustProxy).https;
  // A preview link opens the site whether it is published or not (preview.ts).
  const preview = site ? await previewVisitor(deps, site, req, url, sitePath || '/', secure) : null;
  if (!site || (!site.published && !preview)) return (sendCompressed(message(null, 404, 'This site does not exist, or is not published.')), true);
  if (segments[0] === '~assets') {
    compressed();
    if (!serveAsset(req, res, site, segments.slice(1))) send(req, res, message(site, 404, 'This file does not exist.', sitePath));
    return true;
  }
  // Browsers ask the root of a site's own hostname for its icon: the default one answers.
  if (segments.length === 1 && segments[0] === 'favicon.ico') {
    res.writeHead(302, { location: `${sitePath}/~assets/favicon.svg`, 'cache-control': 'public, max-age=3600' }).end();
    return true;
  }
  // Only robots.txt and the sitemap name the site's origin.
  const origin = () => (sitePath ? new URL(deps.config.publicUrl).origin : `${new URL(deps.config.publicUrl).protocol}//${site.hostname}`);
  if (segments.length === 1 && segments[0] === 'robots.txt') {
    sendCompressed({ status: 200, body: robotsTxt(site, origin(), sitePath), type: 'text/plain; charset=utf-8', cache: cacheFor(site) });
    return true;
  }
  if (segments.length === 1 && segments[0] === 'sitemap.xml') {
    if (site.visibility !== 'public') return (sendCompressed(message(site, 404, 'This site is not indexed.', sitePath)), true);
    sendCompressed({ status: 200, body: await sitemapXml(deps.db, site, origin(), sitePath), type: 'application/xml; charset=utf-8', cache: cacheFor(site) });
    return true;
  }
  const known = (state as SiteState | null)?.site === site ? (state as SiteState | null) : null;
  const admission = preview ? ({ ok: true, visitor: preview } as const) : await admitVisitor(deps.db, site, req, url, sitePath || '/', secure, known?.shareKeys);
  if (!admission.ok && admission.redirect) {
    res.writeHead(302, { location: admission.redirect, 'cache-control': 'no-store' }).end();
    return true;
  }
  if (!admission.ok) {
    sendCompressed(message(site, admission.status, admission.status === 401 ? 'This site is for signed-in visitors: open it from the link you were given.' : 'This site does not exist, or is not published.', sitePath));
    return true;
  }
  const { visitor } = admission;
  if (segments[0] === '~files') return (compressed(), await serveFile(req, res, deps, site, visitor, segments.slice(1)), true);
  const searching = segments[0] === '~search';
  // A path naming no page may be a redirect's source: looked up only then (redirects.ts).
  const redirect = () => redirectReply(deps.db, deps.config.publicUrl, site, url.pathname.slice(sitePath.length) || '/');
  // A page this visitor was answered before, while the site's state is the same: sent again as it was.
  const key = cache && known && !searching && !visitor.preview ? pageKey(known, sitePath, segments, visitor) : undefined;
  const cached = key && cache?.page(key);
  if (cached) return (await sendKept(req, res, cache!, key, cached, visitor.cookies), true);
  const pageSegments = searching ? segments.slice(1) : segments;
  const located = known ? locateIn(site, known, pageSegments, visitor.claims) : await locate(deps.db, site, pageSegments, visitor.claims);
  if (!located) {
    const redirected = searching ? null : await redirect();
    return (sendCompressed(redirected ? { ...redirected, cookies: visitor.cookies } : message(site, 404, 'This site has no content yet.', sitePath)), true);
  }
  const reply = searching ? await searchReply(deps, site, sitePath, located, visitor, url, req.headers['if-none-match']) : await pageReply(deps, site, sitePath, located, visitor, req.headers['if-none-match'], redirect);
  // A page's whole answer (not a 304's empty one, a redirect or a missing page) is remembered.
  if (key && reply.status === 200 && reply.etag && reply.body.length) {
    const page = { status: 200, body: Buffer.from(reply.body), type: reply.type, etag: reply.etag, cache: reply.cache, encoded: {} };
    cache!.rememberPage(key, page);
    return (await sendKept(req, res, cache!, key, page, visitor.cookies), true);
  }
  sendCompressed({ ...reply, cookies: visitor.cookies });
  return true;
}

/** A kept page, in the form the request accepts (compressed once per form, then sent as it is). */
async function sendKept(req: IncomingMessage, res: ServerResponse, cache: PublishedCache, key: string, page: CachedPage, cookies: string[]): Promise<void> {
  const encoding = req.method === 'GET' && page.etag !== req.headers['if-none-match'] ? chosenEncoding(req.headers['accept-encoding']) : undefined;
  const body = encoding ? (page.encoded[encoding] ?? (await cache.encodedBody(key, page, encoding))) : page.body;
  send(req, res, { ...page, body, encoding: encoding ?? 'identity', cookies });
}

