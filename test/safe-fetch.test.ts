/**
 * The safe fetcher of imports (src/lib/fetch) against a real HTTP server on loopback:
 * address classification and SSRF refusals, redirects, time-outs, size caps (declared, streamed,
 * decompressed, total), status and content-type checks, cancellation. No database needed.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportError } from '../src/lib/import-readers/import-error.js';
import { createSafeFetch, isPublicAddress, TotalBytesExceededError } from '../src/lib/fetch/index.js';
import { BlockedAddressError, guardedLookup } from '../src/lib/fetch/guarded-lookup.js';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from '../src/lib/import-readers/tree.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const routes = new Map<string, Handler>();
const hits: string[] = [];
const servers: http.Server[] = [];
let base = '';
let v6Base = '';

async function listen(host: string): Promise<string> {
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    const handler = routes.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (handler) return handler(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

const text = (body: string, type = 'text/plain'): Handler => (_req, res) => res.writeHead(200, { 'content-type': type }).end(body);
const redirect = (status: number, location: string): Handler => (_req, res) => res.writeHead(status, { location }).end();

/** Writes chunks for as long as the client reads (stops once it hangs up). */
const endless = (headers: http.OutgoingHttpHeaders): Handler => (_req, res) => {
  res.writeHead(200, headers);
  const chunk = Buffer.alloc(64 * 1024, 'a');
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
};

// 200 gzip members of 1 MB of zeros each: ~200 KB on the wire, 200 MB once inflated.
const bombMember = zlib.gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
const bomb = Buffer.concat(Array.from({ length: 200 }, () => bombMember));

beforeAll(async () => {
  base = await listen('127.0.0.1');
  v6Base = await listen('::1');
  routes.set('/hello', text('hello'));
  routes.set('/page', text('<h1>Page</h1>', 'Text/HTML; Charset="ISO-8859-1"'));
  routes.set('/plain', text('plain'));
  routes.set('/pdf', text('%PDF-1.4', 'application/pdf'));
  routes.set('/untyped', (_req, res) => res.writeHead(200).end('??'));
  routes.set('/headers', (req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.headers)));
  routes.set('/r1', redirect(301, '/r2'));
  routes.set('/r2', redirect(302, `${base}/r3`));
  routes.set('/r3', redirect(307, '/page#top'));
  routes.set('/loop', redirect(302, '/loop'));
  for (let i = 1; i <= 6; i++) routes.set(`/chain${i}`, redirect(308, i === 6 ? '/hello' : `/chain${i + 1}`));
  routes.set('/to-file', redirect(302, 'file:///etc/passwd'));
  routes.set('/to-credentials', redirect(302, `http://user:secret@127.0.0.1/`));
  routes.set('/no-location', (_req, res) => res.writeHead(302).end());
  routes.set('/missing', (_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>'));
  routes.set('/broken', (_req, res) => res.writeHead(503).end());
  routes.set('/slow-headers', () => {}); // never answers
  routes.set('/slow-body', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('first bytes, then nothing');
  });
  routes.set('/huge-declared', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(50 * 1024 * 1024) });
    res.write('a'); // and never the rest
  });
  routes.set('/endless', endless({ 'content-type': 'text/plain' }));
  routes.set('/bomb', (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': String(bomb.length) }).end(bomb),
  );
  const compressed = 'compressed body '.repeat(100);
  routes.set('/gzip', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(zlib.gzipSync(compressed)));
  routes.set('/deflate', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'deflate' }).end(zlib.deflateSync(compressed)));
  routes.set('/br', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' }).end(zlib.brotliCompressSync(compressed)));
  routes.set('/corrupt-gzip', (_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end('not gzip at all'));
  routes.set('/600', text('x'.repeat(600)));
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const limits = (overrides: Partial<ImportLimits> = {}): ImportLimits => ({ ...DEFAULT_IMPORT_LIMITS, requestTimeoutMs: 2_000, ...overrides });
const local = (overrides: Partial<ImportLimits> = {}, signal?: AbortSignal) =>
  createSafeFetch({ limits: limits(overrides), allowPrivateNetworks: true, signal });

/** The ImportError a promise rejects with (fails the test when it resolves or throws anything else). */
async function failure(promise: Promise<unknown>): Promise<ImportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportError);
  return error as ImportError;
}

describe('isPublicAddress', () => {
  it.each([
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['172.32.0.1', true],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['127.0.0.1', false],
    ['0.0.0.0', false],
    ['255.255.255.255', false],
    ['224.0.0.1', false],
    ['192.0.2.1', false],
    ['240.0.0.1', false],
    ['8.8.8.8', true],
    ['93.184.216.34', true],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fe80::1%eth0', false],
    ['fc00::1', false],
    ['fd12:3456::1', false],
    ['ff02::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:8.8.8.8', true],
    ['::127.0.0.1', false], // deprecated IPv4-compatible form
    ['64:ff9b::a00:1', false], // NAT64 of 10.0.0.1
    ['64:ff9b::808:808', true], // NAT64 of 8.8.8.8
    ['64:ff9b:1::808:808', false], // local-use NAT64
    ['2002:c0a8:0101::1', false], // 6to4 of 192.168.1.1
    ['2002:0808:0808::1', true], // 6to4 of 8.8.8.8
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', false], // Teredo, client 127.0.0.1
    ['2001:db8::1', false], // documentation
    ['2606:4700:4700::1111', true],
    ['[2606:4700:4700::1111]', true],
    ['2a00:1450:4001:82a::200e', true],
    ['not an address', false],
    ['0x7f.1', false],
  ])('%s → %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });
});

describe('address checks', () => {
  it('refuses loopback hosts by default, before any request is sent', async () => {
    const fetch = createSafeFetch({ limits: limits() });
    const before = hits.length;
    const port = new URL(base).port;
    for (const url of [`${base}/hello`, `http://localhost:${port}/hello`, `${v6Base}/hello`, `http://[::ffff:127.0.0.1]:${port}/hello`]) {
      const error = await failure(fetch(url));
      expect(error.code, url).toBe('BLOCKED_ADDRESS');
      expect(error.message).not.toMatch(/Error|at /);
    }
    expect(hits.length).toBe(before);
  });

  it('reads them when private networks are allowed', async () => {
    const fetch = local();
    const port = new URL(base).port;
    for (const url of [`${base}/hello`, `http://localhost:${port}/hello`, `${v6Base}/hello`]) {
      const resource = await fetch(url);
      expect(Buffer.from(resource.bytes).toString()).toBe('hello');
    }
  });

  it('checks every address a host name resolves to', async () => {
    const error = await new Promise<unknown>((resolve) => guardedLookup('localhost', { all: true }, (e) => resolve(e)));
    expect(error).toBeInstanceOf(BlockedAddressError);
  });
});

describe('URLs and redirects', () => {
  it('refuses non-http schemes and credentials', async () => {
    const fetch = local();
    for (const url of ['ftp://example.com/x', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url', `http://user:pw@127.0.0.1:1/`]) {
      expect((await failure(fetch(url))).code, url).toBe('FETCH_ERROR');
    }
  });

  it('follows redirects and answers the final URL', async () => {
    const resource = await local()(`${base}/r1`);
    expect(resource.url).toBe(`${base}/page#top`);
    expect(resource.status).toBe(200);
    expect(resource.contentType).toBe('text/html');
    expect(resource.charset).toBe('iso-8859-1');
  });

  it('follows at most 5 redirects', async () => {
    expect(Buffer.from((await local()(`${base}/chain2`)).bytes).toString()).toBe('hello'); // 5 hops
    const error = await failure(local()(`${base}/chain1`)); // 6 hops
    expect(error.code).toBe('FETCH_ERROR');
    expect(error.message).toMatch(/redirects more than 5 times/);
    expect((await failure(local()(`${base}/loop`))).code).toBe('FETCH_ERROR');
  });

  it('checks every hop', async () => {
    for (const path of ['/to-file', '/to-credentials', '/no-location']) {
      expect((await failure(local()(`${base}${path}`))).code, path).toBe('FETCH_ERROR');
    }
  });
});

describe('time-outs and cancellation', () => {
  it('times out waiting for headers', async () => {
    const started = Date.now();
    const error = await failure(local({ requestTimeoutMs: 300 })(`${base}/slow-headers`));
    expect(error.code).toBe('FETCH_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('times out reading a slow body', async () => {
    expect((await failure(local({ requestTimeoutMs: 300 })(`${base}/slow-body`))).code).toBe('FETCH_TIMEOUT');
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    const pending = local({}, controller.signal)(`${base}/slow-headers`);
    setTimeout(() => controller.abort(), 100);
    expect((await failure(pending)).code).toBe('CANCELLED');
    // Already aborted: refused at once.
    expect((await failure(local({}, controller.signal)(`${base}/hello`))).code).toBe('CANCELLED');
  });

  it('answers an ImportError reason as is', async () => {
    const controller = new AbortController();
    const pending = local({}, controller.signal)(`${base}/slow-body`);
    setTimeout(() => controller.abort(new ImportError('FETCH_TIMEOUT', 'The import ran out of time.')), 100);
    const error = await failure(pending);
    expect(error.code).toBe('FETCH_TIMEOUT');
    expect(error.message).toBe('The import ran out of time.');
  });
});

describe('sizes', () => {
  it('refuses a declared Content-Length over the limit before reading', async () => {
    const error = await failure(local({ maxResponseBytes: 1024 * 1024 })(`${base}/huge-declared`));
    expect(error.code).toBe('TOO_LARGE');
    expect(error.message).toMatch(/1 MB/);
  });

  it('counts streamed bytes when no length is declared', async () => {
    const started = Date.now();
    const error = await failure(local({ maxResponseBytes: 256 * 1024, maxTotalBytes: 2 ** 30 })(`${base}/endless`));
    expect(error.code).toBe('TOO_LARGE');
    expect(error.message).toMatch(/256 KB/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('lets FetchOptions.maxBytes override the limit', async () => {
    expect((await failure(local()(`${base}/600`, { maxBytes: 100 }))).code).toBe('TOO_LARGE');
    expect((await local({ maxResponseBytes: 100 })(`${base}/600`, { maxBytes: 1000 })).bytes.length).toBe(600);
  });

  it('stops a gzip bomb at the decompressed limit, quickly', async () => {
    const started = Date.now();
    const error = await failure(local({ maxResponseBytes: 1024 * 1024, maxTotalBytes: 2 ** 30 })(`${base}/bomb`));
    expect(error.code).toBe('TOO_LARGE');
    expect(error).not.toBeInstanceOf(TotalBytesExceededError);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('decompresses gzip, deflate and br', async () => {
    const fetch = local();
    for (const path of ['/gzip', '/deflate', '/br']) {
      expect(Buffer.from((await fetch(`${base}${path}`)).bytes).toString(), path).toBe('compressed body '.repeat(100));
    }
    expect((await failure(fetch(`${base}/corrupt-gzip`))).code).toBe('FETCH_ERROR');
  });

  it('caps the bytes of all fetches together', async () => {
    const fetch = local({ maxTotalBytes: 1500 });
    await fetch(`${base}/600`);
    await fetch(`${base}/600`);
    const error = await failure(fetch(`${base}/600`));
    expect(error.code).toBe('TOO_LARGE');
    expect(error).toBeInstanceOf(TotalBytesExceededError);
    // Another fetcher (another import) has its own budget.
    expect((await local({ maxTotalBytes: 1500 })(`${base}/600`)).bytes.length).toBe(600);
  });
});

describe('answers', () => {
  it('fails on error statuses, naming the status', async () => {
    const missing = await failure(local()(`${base}/missing`));
    expect(missing.code).toBe('HTTP_ERROR');
    expect(missing.message).toMatch(/404/);
    const broken = await failure(local()(`${base}/broken`));
    expect(broken.code).toBe('HTTP_ERROR');
    expect(broken.message).toMatch(/503/);
  });

  it('accepts only the listed content types', async () => {
    const fetch = local();
    const refused = await failure(fetch(`${base}/pdf`, { accept: ['text/html', 'application/xhtml+xml'] }));
    expect(refused.code).toBe('UNSUPPORTED_CONTENT_TYPE');
    expect(refused.message).toMatch(/application\/pdf/);
    expect((await failure(fetch(`${base}/untyped`, { accept: ['text/*'] }))).code).toBe('UNSUPPORTED_CONTENT_TYPE');
    expect((await fetch(`${base}/plain`, { accept: ['text/*'] })).contentType).toBe('text/plain');
    expect((await fetch(`${base}/page`, { accept: ['TEXT/HTML'] })).contentType).toBe('text/html');
    expect((await fetch(`${base}/pdf`)).contentType).toBe('application/pdf');
    expect((await fetch(`${base}/untyped`)).contentType).toBe('application/octet-stream');
  });

  it('sends its user agent, accept list and encodings', async () => {
    const resource = await local()(`${base}/headers`, { accept: ['application/json'] });
    const headers = JSON.parse(Buffer.from(resource.bytes).toString()) as Record<string, string>;
    expect(headers['user-agent']).toBe('quire-import/1');
    expect(headers.accept).toBe('application/json');
    expect(headers['accept-encoding']).toBe('gzip, deflate, br');
  });
});
