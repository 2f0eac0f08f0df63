/**
 * A published page answered from memory before the rest of the app runs (app.ts): the warm path of
 * a site. Only what the published cache decides alone takes it — GET or HEAD of a page of a public
 * or unlisted site, by a path without a query and without a preview cookie (no share key, token or
 * preview to read), whose site's state and page are both in memory, in the form the request
 * accepts. Deciding has no side effect: what it does not answer, servePublished answers (the same
 * bytes and headers), making the missing form or reading what is missing.
 *
 * A kept page's headers are built once per form and kept with the page, as the flat array
 * `res.writeHead` takes (no header object per request).
 */
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config.js';
import { SITE_HOSTNAME } from '../domain/publishing/sites/sites.js';
import { chosenEncoding } from '../http/content-encoding.js';
import { pageKey, type CachedPage, type PublishedCache } from './cache/published-cache.js';
import type { SiteState } from './cache/site-state.js';
import { replyHeaders } from './reply.js';
import { hostOf, rememberedSiteOn } from './site-of-request.js';
import { PUBLISHED_PREFIX } from './urls.js';

/** `headers`: the page's, as [name, value, …] (the caller adds the request's own: ID, rate limit). */
export type KeptAnswer = { status: 200 | 304; headers: readonly string[]; body?: Buffer; route: string };

type Form = NonNullable<keyof NonNullable<CachedPage['heads']>>;

/** The route templates (site-route.ts) of a page: by method, on the API's host or the site's own, at the root or below. */
const ROUTES = {
  GET: { prefix: ['GET /sites/{siteId}/', 'GET /sites/{siteId}/{pagePath}'], hostname: ['GET {siteHostname}/', 'GET {siteHostname}/{pagePath}'] },
  HEAD: { prefix: ['HEAD /sites/{siteId}/', 'HEAD /sites/{siteId}/{pagePath}'], hostname: ['HEAD {siteHostname}/', 'HEAD {siteHostname}/{pagePath}'] },
} as const;

/** Paths servePublished answers otherwise than with a page (assets, files, search, robots.txt, the sitemap, the icon). */
const notAPage = (segments: readonly string[]) => segments[0]?.startsWith('~') || (segments.length === 1 && (segments[0] === 'robots.txt' || segments[0] === 'sitemap.xml' || segments[0] === 'favicon.ico'));

/** The page's headers for `form` (`notModified`: a 304's), built once. */
function headsOf(page: CachedPage, form: Form): readonly string[] {
  const made = page.heads?.[form];
  if (made) return made;
  const encoding = form === 'notModified' ? 'identity' : form;
  const pairs = Object.entries(replyHeaders({ ...page, encoding })).flatMap(([name, value]) => [name, String(value)]);
  pairs.push('vary', 'Accept-Encoding');
  if (form !== 'notModified') pairs.push('content-length', String((form === 'identity' ? page.body : page.encoded[form]!).length));
  (page.heads ??= {})[form] = pairs;
  return pairs;
}

/** The segments of a path, decoded; undefined when one does not decode. */
function segmentsOf(path: string): string[] | undefined {
  try {
    return path.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return undefined; // URIError: servePublished answers it
  }
}

/** URLs whose page key is remembered at once (kept-answer's `named`), before it is emptied. */
const MAX_NAMED = 5000;

/**
 * What a URL names under a site's state (its stamp: no old state is held alive by it): its page's
 * key (undefined: not a page), and whether it is the site's root.
 */
type Named = { stamp: number; key: string | undefined; root: boolean };

export function createKeptAnswers(cache: PublishedCache, config: Pick<Config, 'publicUrl'>) {
  const apiHost = new URL(config.publicUrl).hostname;
  const prefix = `${PUBLISHED_PREFIX}/`;
  // What each URL named under its site's state, so that a warm request splits, decodes and keys
  // nothing: made once per URL and state (the site's next state makes it again).
  const named = new Map<string, Named>();

  function nameOf(id: string, state: SiteState, sitePath: () => string, path: string): Named | undefined {
    const known = named.get(id);
    if (known?.stamp === state.stamp) return known;
    const segments = segmentsOf(path);
    if (!segments) return undefined;
    if (named.size >= MAX_NAMED) named.clear();
    // The key servePublished remembers the page under, for a visitor of a public site (visitor.ts).
    const entry = { stamp: state.stamp, key: notAPage(segments) ? undefined : pageKey(state, sitePath(), segments, { claims: {} }), root: segments.length === 0 };
    named.set(id, entry);
    return entry;
  }

  /** What the request names, when its site is known without a lookup. */
  function placeOf(req: IncomingMessage, url: string) {
    if (url.startsWith(prefix)) {
      const end = url.indexOf('/', prefix.length);
      const siteId = url.slice(prefix.length, end === -1 ? undefined : end);
      // An ID needing decoding (or too long to be one) is left to servePublished.
      if (siteId.length === 0 || siteId.length > 64 || siteId.includes('%')) return undefined;
      const state = cache.stateNow(siteId);
      const name = state && nameOf(url, state, () => `${PUBLISHED_PREFIX}/${siteId}`, end === -1 ? '' : url.slice(end));
      return name && { name, state: state!, on: 'prefix' as const };
    }
    const host = hostOf(req);
    const siteId = SITE_HOSTNAME.test(host) && host !== apiHost ? rememberedSiteOn(host) : undefined;
    const state = siteId === undefined ? undefined : cache.stateNow(siteId);
    const name = state && state.site.hostname === host && state.site.hostnameVerifiedAt ? nameOf(`${host} ${url}`, state, () => '', url) : undefined;
    return name && { name, state: state!, on: 'hostname' as const };
  }

  /** The kept answer to `req`, or undefined (servePublished decides). */
  return function keptAnswer(req: IncomingMessage): KeptAnswer | undefined {
    const method = req.method;
    const url = req.url;
    if ((method !== 'GET' && method !== 'HEAD') || !url || url.includes('?') || req.headers.cookie?.includes('quire_preview_')) return undefined;
    const place = placeOf(req, url);
    if (!place?.name.key) return undefined;
    const { site } = place.state;
    if (!site.published || (site.visibility !== 'public' && site.visibility !== 'unlisted')) return undefined;
    const page = cache.page(place.name.key);
    if (!page) return undefined;
    const route = ROUTES[method][place.on][place.name.root ? 0 : 1];
    if (page.etag !== undefined && req.headers['if-none-match'] === page.etag) return { status: 304, headers: headsOf(page, 'notModified'), route };
    // HEAD: the headers of the page as sent without compression (as servePublished sends them), no body.
    if (method === 'HEAD') return { status: 200, headers: headsOf(page, 'identity'), route };
    const encoding = chosenEncoding(req.headers['accept-encoding']);
    if (!encoding) return { status: 200, headers: headsOf(page, 'identity'), body: page.body, route };
    const body = page.encoded[encoding];
    return body && { status: 200, headers: headsOf(page, encoding), body, route };
  };
}

export type KeptAnswers = ReturnType<typeof createKeptAnswers>;
