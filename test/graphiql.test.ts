/**
 * GraphiQL: a small page whose assets are cacheable (hashed URLs, immutable, ETag, compressed) and
 * outside the rate limit, so that a second visit costs a few KB; a welcome that says what quire is
 * and whose query runs; and, in Chromium, a schema fetched again once the Authorization header is set.
 */
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { request } from 'node:http';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { graphiqlAssets } from '../src/http/graphiql-assets.js';
import { GRAPHIQL_WELCOME } from '../src/http/graphiql-page.js';
import { CHROMIUM, CHROMIUM_ARGS, hasBrowser } from './helpers/chromium.js';
import { createOrg } from './helpers/factories.js';
import { useServer } from './helpers/server.js';

// A tiny budget: the page may be refused, its assets never.
const server = useServer({ env: () => ({ QUIRE_RATE_LIMIT: '10', QUIRE_RATE_LIMIT_WINDOW_SECONDS: '3600' }) });

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; bytes: Buffer };

/** A GET as it travels: the bytes on the wire, not decoded (fetch would decompress them). */
function get(path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const linkedAssets = (html: string) => [...html.matchAll(/(?:src|href)="(\/graphiql\/[^"]+)"|"(\/graphiql\/[^"]+\.js)"/g)].map((m) => m[1] ?? m[2]);

describe('GraphiQL', () => {
  it('is a small page linking to hashed assets, cached for a year, revalidated by ETag, compressed', async () => {
    const page = await get('/graphql', { accept: 'text/html', 'accept-encoding': 'gzip, br' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.bytes.length).toBeLessThan(8 * 1024); // was 9 MB
    expect(page.headers['content-encoding']).toBe('br'); // over 1 KiB
    const html = brotliDecompressSync(page.bytes).toString();
    expect(html).toContain('YogaGraphiQL.renderYogaGraphiQL');
    const paths = linkedAssets(html);
    // The script, the style, the icon and the three editor workers.
    const assets = await graphiqlAssets();
    expect(new Set(paths)).toEqual(new Set(Object.values(assets).map((a) => a.path)));
    for (const path of paths) expect(path).toMatch(/^\/graphiql\/[a-z-]+\.[\w-]{16}\.(js|css|ico)$/);

    let firstVisit = page.bytes.length;
    let secondVisit = page.bytes.length;
    for (const path of paths) {
      const asset = Object.values(assets).find((a) => a.path === path)!;
      const br = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.status).toBe(200);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.headers['content-type']).toBe(asset.type);
      expect(br.headers.vary).toContain('Accept-Encoding');
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.bytes).equals(asset.bytes)).toBe(true);
      const etag = String(br.headers.etag);
      expect(etag).toMatch(/^"[\w-]{16}\.br"$/);
      firstVisit += br.bytes.length;

      const again = await get(path, { 'accept-encoding': 'gzip, deflate, br', 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.bytes.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      secondVisit += again.bytes.length;

      const gz = await get(path, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.bytes).equals(asset.bytes)).toBe(true);
      const plain = await get(path);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.bytes.equals(asset.bytes)).toBe(true);
      expect(Number(plain.headers['content-length'])).toBe(asset.bytes.length);
      const refused = await get(path, { 'accept-encoding': 'br;q=0, gzip;q=0' });
      expect(refused.headers['content-encoding']).toBeUndefined();
    }
    // A first visit compressed: the scripts and workers (about 8.7 MB as they are) weigh under 2.5 MB.
    expect(firstVisit).toBeLessThan(2.5 * 1024 * 1024);
    expect(secondVisit).toBeLessThan(8 * 1024);
    // A stale hash (an older release's page) and other paths under /graphiql/ are 404, writes 405.
    expect((await get('/graphiql/graphiql.AAAAAAAAAAAAAAAA.js')).status).toBe(404);
    const post = await fetch(`${server.url}${assets.script.path}`, { method: 'POST' });
    expect(post.status).toBe(405);
  });

  it('does not count asset requests against the rate limit (the page is counted: it is /graphql)', async () => {
    for (let i = 0; i < 25; i++) {
      const asset = await get((await graphiqlAssets()).favicon.path);
      expect(asset.status).toBe(200);
      expect(asset.headers['x-ratelimit-remaining']).toBeUndefined();
    }
  });

  it('welcomes with what quire is and a query that runs', async () => {
    expect(GRAPHIQL_WELCOME).toMatch(/^# quire: the management API of a self-hosted\n# documentation platform\./);
    const { org, owner } = await createOrg(server.db);
    // Under a budget of 10, a fresh token: its own budget.
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: GRAPHIQL_WELCOME }),
    });
    const body = await response.json();
    expect(body.errors).toBeUndefined();
    expect(body.data.viewer.email).toBe(owner.email);
    expect(body.data.organizations.edges.map((e: { node: { id: string } }) => e.node.id)).toContain(org.id);
  });
});

describe.skipIf(!hasBrowser)('GraphiQL in Chromium', () => {
  it('loads its assets, then refetches the schema once the Authorization header is set', async () => {
    const { owner } = await createOrg(server.db);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      const introspections: (string | null)[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().endsWith('/graphql') && (r.postData() ?? '').includes('__schema')) introspections.push(r.headers().authorization ?? null);
      });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${server.url}/graphql`);
      await page.waitForSelector('.graphiql-container');
      await expect.poll(() => introspections.length, { timeout: 20_000 }).toBeGreaterThan(0);
      expect(introspections[0]).toBe('Bearer <token>');
      expect(await page.title()).toBe('quire');

      // Open the headers tab and replace its text with a real token.
      await page.locator('button[data-name="headers"]').click();
      const editor = page.locator('.graphiql-editor-tool .monaco-editor').last();
      await editor.click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('Delete');
      await page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${owner.token}` }));
      await expect.poll(() => introspections.includes(`Bearer ${owner.token}`), { timeout: 20_000 }).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
