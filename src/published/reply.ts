/** An answer of the published site: HTML (or CSS, XML, text) with its caching headers, sent with 304 when the client has it. */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Site } from '../generated/prisma/client.js';
import type { Encoding } from '../http/content-encoding.js';
import { renderMessagePage, SCRIPT_HASHES, SITE_CSS_ASSET, type MessagePageView } from './render/index.js';

/** Bumped when the HTML changes shape, so cached answers of an older quire are not reused. */
export const RENDER_VERSION = '2';

/** Pages run their own inline scripts only, named by their hashes: no injected script runs, even were one to slip into the HTML. */
const PAGE_CSP = `default-src 'self'; img-src * data:; font-src 'self' http: https:; style-src 'self' 'unsafe-inline'; script-src 'self' ${SCRIPT_HASHES.join(' ')}; frame-ancestors 'self'`;

/**
 * `encoding`: the body's content coding, for an answer chosen by the request's Accept-Encoding
 * (then `Vary: Accept-Encoding`, `identity` included); the app's compression leaves such a body as it is.
 */
export type Reply = { status: number; body: string | Buffer; type: string; etag?: string; cache: string; cookies?: string[]; location?: string; encoding?: Encoding | 'identity' };

/** The headers of an answer but `Vary` (appended to CORS's own by send(); kept-answer.ts writes it itself). */
export function replyHeaders(reply: Omit<Reply, 'body'>): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = { 'content-type': reply.type, 'cache-control': reply.cache, 'x-content-type-options': 'nosniff' };
  if (reply.etag) headers.etag = reply.etag;
  if (reply.location) headers.location = reply.location;
  if (reply.encoding && reply.encoding !== 'identity') headers['content-encoding'] = reply.encoding;
  if (reply.cookies?.length) headers['set-cookie'] = reply.cookies;
  if (reply.type.startsWith('text/html')) headers['content-security-policy'] = PAGE_CSP;
  return headers;
}

export function send(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  const headers = replyHeaders(reply);
  if (reply.encoding) res.appendHeader('vary', 'Accept-Encoding'); // beside CORS's `Origin`
  if (reply.etag && reply.status === 200 && req.headers['if-none-match'] === reply.etag) {
    res.writeHead(304, headers);
    return void res.end();
  }
  // Its length stated (writeHead sends the headers at once: without it, the body would go chunked); HEAD's too.
  headers['content-length'] = String(Buffer.byteLength(reply.body));
  res.writeHead(reply.status, headers);
  res.end(req.method === 'HEAD' ? undefined : reply.body);
}

export const etagOf = (parts: unknown[]) => `"${createHash('sha256').update(JSON.stringify([RENDER_VERSION, ...parts])).digest('base64url').slice(0, 27)}"`;

/** What an answer for this visitor may be cached as (a preview: by no one but the browser). */
export const cacheFor = (site: Site, visitor?: { preview?: true }) =>
  !visitor?.preview && (site.visibility === 'public' || site.visibility === 'unlisted') ? 'public, max-age=60, stale-while-revalidate=300' : 'private, no-cache';

/** `sitePath`: where the site answers, for its favicon and stylesheet (unknown for a request naming no site). */
function messageView(site: Site | null, sitePath?: string, lang = 'en'): MessagePageView {
  const favicon = sitePath === undefined ? undefined : `${sitePath}/~assets/favicon.svg`;
  return {
    lang,
    site: { title: site?.title ?? 'Not found', href: sitePath === undefined ? undefined : `${sitePath}/`, favicon: favicon ? { light: favicon, dark: favicon } : undefined, headerLinks: [], footer: { groups: [] }, colors: { primary: { light: '#346DDB', dark: '#346DDB' } }, theme: { default: 'light', toggleable: false } },
    ...(sitePath === undefined ? {} : { stylesheetUrl: `${sitePath}/~assets/${SITE_CSS_ASSET}` }),
  };
}

/** An error page in a plain look: for requests that name no site space the visitor may read (see page-reply.ts for a page missing from one). */
export const message = (site: Site | null, status: 401 | 404, text: string, sitePath?: string): Reply => ({
  status,
  body: renderMessagePage(messageView(site, sitePath), status, text),
  type: 'text/html; charset=utf-8',
  cache: 'no-store',
});

