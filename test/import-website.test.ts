/**
 * The `website` import source (src/lib/import-readers/sources/website.ts) crawling a little site served
 * on loopback: breadth-first order, same-origin links only, duplicates and cycles, non-HTML and
 * failing links skipped, depth, page, byte and time limits, robots.txt, charsets, cancellation.
 * No database needed.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSafeFetch } from '../src/lib/fetch/index.js';
import { ImportError } from '../src/lib/import-readers/import-error.js';
import { websiteSource } from '../src/lib/import-readers/sources/website.js';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits, type SourceContext } from '../src/lib/import-readers/tree.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const routes = new Map<string, Handler>();
const hits = new Map<string, number>();
let server: http.Server;
let base = '';

const page = (title: string, links: string[], text = `About ${title}.`) =>
  `<!doctype html><html><head><title>${title} | Site</title></head><body><main><h1>${title}</h1><p>${text}</p>` +
  `<ul>${links.map((href) => `<li><a href="${href}">${href}</a></li>`).join('')}</ul></main></body></html>`;
const html = (body: string | Buffer, type = 'text/html; charset=utf-8'): Handler => (_req, res) => res.writeHead(200, { 'content-type': type }).end(body);
const redirect = (location: string): Handler => (_req, res) => res.writeHead(301, { location }).end();

const site: Record<string, Handler> = {
  '/': html(page('Home', ['/a', 'b', 'https://elsewhere.example/x', '/manual.pdf', '/download', '/missing', '/#top', 'mailto:someone@example.com'])),
  '/a': html(page('Alpha', ['/c', '/', '/b#part', './a'])),
  '/b': html(page('Beta', ['/a', '/moved'])),
  '/c': html(page('Gamma', ['/d?x=1'])),
  '/d': html(page('Delta', []), 'application/xhtml+xml'),
  '/download': html('%PDF-1.4', 'application/pdf'),
  '/manual.pdf': html('%PDF-1.4', 'application/pdf'),
  '/moved': redirect('/a'),
  '/old': redirect('/'),
  '/latin': html(Buffer.from(page('Café', [], 'Crème brûlée, naïve façade.'), 'latin1'), 'text/html; charset=ISO-8859-1'),
  '/meta-latin': html(
    Buffer.from(`<html><head><meta charset="iso-8859-1"><title>Été</title></head><body><h1>Été</h1><p>Señor</p></body></html>`, 'latin1'),
    'text/html',
  ),
  '/slow-site': html(page('Slow site', ['/slow', '/a'])),
  '/slow': (_req, res) => setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(page('Slow', [])), 3_000).unref(),
  '/budget': html(page('Budget', ['/budget1', '/budget2'], 'x'.repeat(1000))),
  '/budget1': html(page('Budget 1', [], 'x'.repeat(1000))),
  '/budget2': html(page('Budget 2', [], 'x'.repeat(1000))),
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const handler = routes.get(path) ?? site[path];
    if (handler) return handler(req, res);
    res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  routes.clear();
  hits.clear();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function context(overrides: Partial<ImportLimits> = {}, signal = new AbortController().signal) {
  const limits = { ...DEFAULT_IMPORT_LIMITS, requestTimeoutMs: 5_000, ...overrides };
  const progress: number[] = [];
  const ctx: SourceContext = {
    fetch: createSafeFetch({ limits, signal, allowPrivateNetworks: true }),
    limits,
    signal,
    progress: (done) => progress.push(done),
  };
  return { ctx, progress };
}

const sources = (tree: { pages: { source: string }[] }) => tree.pages.map((p) => p.source.slice(base.length));

async function failure(promise: Promise<unknown>): Promise<ImportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportError);
  return error as ImportError;
}

describe('websiteSource', () => {
  it('crawls same-origin pages breadth-first, each once', async () => {
    const { ctx, progress } = context();
    const tree = await websiteSource(`${base}/`, ctx);
    expect(sources(tree)).toEqual(['/', '/a', '/b', '/c', '/d?x=1']);
    expect(tree.pages.map((p) => p.title)).toEqual(['Home', 'Alpha', 'Beta', 'Gamma', 'Delta']);
    expect(tree.pages[1].markdown).toContain('About Alpha.');
    expect(tree.pages.every((p) => p.children.length === 0)).toBe(true);
    expect(tree.files).toEqual([]);
    // /, a, b, c, d?x=1 and the unread download, missing and moved are found; the last three are no pages.
    expect(tree.totalResources).toBe(5);
    expect(progress).toEqual([1, 2, 3, 4, 5]);
    // Fragments and cycles fetch nothing twice; file-like links and other sites are not fetched at all.
    for (const path of ['/', '/b', '/c', '/d', '/download', '/missing', '/moved']) expect(hits.get(path), path).toBe(1);
    expect(hits.get('/a')).toBe(2); // the second through /moved, whose page is then left out as a duplicate
    expect(hits.has('/manual.pdf')).toBe(false);
  });

  it('answers the final URL of a redirected start page', async () => {
    const tree = await websiteSource(`${base}/old#top`, context({ maxDepth: 0 }).ctx);
    expect(sources(tree)).toEqual(['/']);
  });

  it('crawls the origin a start page redirects to; a link redirecting elsewhere is left out', async () => {
    const other = base.replace('127.0.0.1', 'localhost'); // another origin, same server
    routes.set('/to-ip', redirect(`${base}/hub`));
    routes.set('/hub', html(page('Hub', ['/b', '/away'])));
    routes.set('/away', redirect(`${other}/a`));
    const tree = await websiteSource(`${other}/to-ip`, context({ maxDepth: 1 }).ctx);
    expect(sources(tree)).toEqual(['/hub', '/b']);
    expect(tree.totalResources).toBe(4); // and /a, /moved linked from /b; /away is no page of the site
    expect(hits.get('/a')).toBe(1); // fetched through /away, then left out
  });

  it('stops at the depth limit, counting what it left out', async () => {
    const shallow = await websiteSource(`${base}/`, context({ maxDepth: 1 }).ctx);
    expect(sources(shallow)).toEqual(['/', '/a', '/b']);
    expect(shallow.totalResources).toBe(5); // and /c and /moved, linked from depth 1 (not read: /download, /missing)
    const start = await websiteSource(`${base}/`, context({ maxDepth: 0 }).ctx);
    expect(sources(start)).toEqual(['/']);
    expect(start.totalResources).toBe(5); // /a, /b, /download and /missing, never read
    expect(hits.get('/a')).toBe(1); // by the first crawl only
  });

  it('stops at the page limit', async () => {
    const tree = await websiteSource(`${base}/`, context({ maxPages: 2 }).ctx);
    expect(sources(tree)).toEqual(['/', '/a']);
    expect(tree.totalResources).toBe(6); // /, a, b, download, missing, c
  });

  it('stops at the byte limit, keeping the pages read', async () => {
    const tree = await websiteSource(`${base}/budget`, context({ maxTotalBytes: 2_600 }).ctx);
    expect(sources(tree)).toEqual(['/budget', '/budget1']);
    expect(tree.totalResources).toBe(3);
  });

  it('stops when time runs out, keeping the pages read', async () => {
    const started = Date.now();
    const tree = await websiteSource(`${base}/slow-site`, context({ totalTimeMs: 600 }).ctx);
    expect(sources(tree)).toEqual(['/slow-site']);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('honours robots.txt', async () => {
    routes.set('/robots.txt', html('User-agent: *\nDisallow: /b\n', 'text/plain'));
    const tree = await websiteSource(`${base}/`, context().ctx);
    expect(sources(tree)).toEqual(['/', '/a', '/c', '/d?x=1']);
    expect(hits.has('/b')).toBe(false);
  });

  it('refuses a start page robots.txt disallows', async () => {
    routes.set('/robots.txt', html('User-agent: Googlebot\nDisallow:\n\nUser-agent: quire-import\nDisallow: /\n', 'text/plain'));
    expect((await failure(websiteSource(`${base}/`, context().ctx))).code).toBe('ROBOTS_DISALLOWED');
    expect(hits.has('/')).toBe(false);
  });

  it('ignores a robots.txt that fails', async () => {
    routes.set('/robots.txt', (_req, res) => res.writeHead(500).end('User-agent: *\nDisallow: /'));
    expect(sources(await websiteSource(`${base}/`, context({ maxDepth: 0 }).ctx))).toEqual(['/']);
  });

  it('decodes the response charset, or the meta charset', async () => {
    const latin = await websiteSource(`${base}/latin`, context().ctx);
    expect(latin.pages[0].title).toBe('Café');
    expect(latin.pages[0].markdown).toContain('Crème brûlée, naïve façade.');
    const meta = await websiteSource(`${base}/meta-latin`, context().ctx);
    expect(meta.pages[0].markdown).toContain('Señor');
  });

  it('fails when the start page fails', async () => {
    expect((await failure(websiteSource(`${base}/missing`, context().ctx))).code).toBe('HTTP_ERROR');
    expect((await failure(websiteSource(`${base}/download`, context().ctx))).code).toBe('UNSUPPORTED_CONTENT_TYPE');
    expect((await failure(websiteSource('ftp://example.com/', context().ctx))).code).toBe('FETCH_ERROR');
  });

  it('refuses private addresses unless allowed', async () => {
    const limits = DEFAULT_IMPORT_LIMITS;
    const signal = new AbortController().signal;
    const ctx: SourceContext = { fetch: createSafeFetch({ limits, signal }), limits, signal, progress: () => {} };
    expect((await failure(websiteSource(`${base}/`, ctx))).code).toBe('BLOCKED_ADDRESS');
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    const { ctx } = context({}, controller.signal);
    const tree = websiteSource(`${base}/`, { ...ctx, progress: () => controller.abort() });
    expect((await failure(tree)).code).toBe('CANCELLED');
    expect(hits.has('/b')).toBe(false);
  });
});
