/**
 * The published cache (src/published/cache/): a warm page is answered from memory without SQL,
 * and what changes a site — a merge, a customization change, unpublishing, a visibility change —
 * shows at once on the instance that made the write (its mutation answers once the instance has
 * heard the database's notification) and, as soon as the notification arrives, on another
 * instance on the same database. Pages are bounded by bytes; a cold page's statements do not grow
 * with the size of the space.
 */
import { randomInt } from 'node:crypto';
import { request, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { http, sdk } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer, type TestServer } from './helpers/server.js';
import { createPublishedCache } from '../src/published/cache/published-cache.js';

/** This file's servers name their connections: other files' servers LISTEN on the same database meanwhile. */
const APPLICATION = `published-cache-${randomInt(1e9)}`;
const a = useServer({ applicationName: APPLICATION });
const b = useServer({ applicationName: APPLICATION });
/** A third instance with a rate limit (batched: the kept answer counts without waiting for the store). */
const limited = useServer({ applicationName: APPLICATION, env: () => ({ QUIRE_RATE_LIMIT: '100000' }) });
// The limited instance is asked from an address of its own: the budgets of addresses are counted in
// the database every test file shares, and others (graphiql's) give 127.0.0.1 a budget of ten.
const LIMITED_FROM = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
const fromOf = (server: TestServer) => (server === limited ? LIMITED_FROM : undefined);
/** A fourth that keeps no page (every request renders, or answers 304 from the ETag alone). */
const unkept = useServer({ applicationName: APPLICATION, env: () => ({ QUIRE_PUBLISHED_CACHE_MB: '0' }) });

/** Writes pages in a change request and merges it (`pages` a function: batches written one after the other, given the IDs so far). */
async function writePages(token: string, spaceId: string, pages: { title: string; markdown?: string; document?: unknown }[] | ((ids: string[]) => unknown[])[]) {
  const api = sdk(a.url, token);
  const cr = (await api.spaces.createChangeRequest(spaceId, { subject: 'Content' })).data;
  const content = `/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`;
  const batches =
    typeof pages[0] === 'function'
      ? (pages as ((ids: string[]) => unknown[])[])
      : Array.from({ length: Math.ceil(pages.length / 50) }, (_, n) => () => (pages as { title: string; markdown?: string }[]).slice(n * 50, n * 50 + 50).map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } })));
  const ids: string[] = [];
  for (const batch of batches) {
    const { status, body } = await http(a.url, token, 'POST', content, { changes: batch(ids) });
    expect(status, JSON.stringify(body)).toBe(200);
    ids.push(...body.changes.map((c: { page: { id: string } }) => c.page.id));
  }
  await api.spaces.mergeChangeRequest(spaceId, cr.id);
  return ids;
}

async function publishedSite(pages = 2) {
  const { org, owner } = await createOrg(a.db);
  const api = sdk(a.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
  await writePages(owner.token, space.id, Array.from({ length: pages }, (_, i) => ({ title: `Page ${i + 1}`, markdown: `# Page ${i + 1}\n\nThe first text of page ${i + 1}.\n` })));
  const site = (await api.orgs.createSite(org.id, { title: 'Acme docs', visibility: 'public' as never, spaces: [space.id] } as never)).data;
  await api.orgs.publishSite(org.id, site.id);
  return { org, owner, api, space, site, path: `/sites/${site.id}` };
}

const get = (server: TestServer, path: string) => fetch(`${server.url}${path}`, { redirect: 'manual' });
const text = async (server: TestServer, path: string) => (await get(server, path)).text();

/** The statements `server` runs to answer `path`, and the answer. */
async function counted(server: TestServer, path: string) {
  const before = server.queries.length;
  const response = await get(server, path);
  const body = await response.text();
  return { status: response.status, body, statements: server.queries.slice(before) };
}

/** Both instances answer `path` from memory (a first request warms each). */
async function warmOnBoth(path: string) {
  for (const server of [a, b]) {
    await get(server, path).then((r) => r.text());
    const warm = await counted(server, path);
    expect(warm.status).toBe(200);
    expect(warm.statements, warm.statements.join('\n')).toEqual([]);
  }
}

/** The answer as sent (no decoding): status, headers and bytes. */
function raw(server: TestServer, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    request(`${server.url}${path}`, { headers, localAddress: fromOf(server) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

/** `check` holds on the writing instance at once, and on the other once the notification arrived. */
async function seenOnBoth(check: (server: TestServer) => Promise<void>) {
  await check(a);
  await expect.poll(() => check(b).then(() => true, () => false), { timeout: 5000, interval: 20 }).toBe(true);
  await check(b);
}

describe('the published cache', () => {
  it('answers a warm page from memory, the same bytes, without SQL', async () => {
    const { path } = await publishedSite();
    const first = await counted(a, `${path}/page-2`);
    expect(first.statements.length).toBeGreaterThan(0);
    const again = await counted(a, `${path}/page-2`);
    expect(again.statements).toEqual([]);
    expect(again.body).toBe(first.body);
    const etag = (await get(a, `${path}/page-2`)).headers.get('etag')!;
    const before = a.queries.length;
    expect((await fetch(`${a.url}${path}/page-2`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    expect(a.queries.length).toBe(before);
  });

  it('answers a kept page compressed when the request accepts it (made once, kept), identity otherwise, with Vary', async () => {
    const { path } = await publishedSite();
    const plain = await raw(a, `${path}/page-2`, {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    const html = plain.body.toString();
    expect(html).toContain('The first text of page 2.');
    for (const [accept, encoding, decode] of [['gzip, deflate', 'gzip', gunzipSync], ['gzip, deflate, br, zstd', 'br', brotliDecompressSync]] as const) {
      const before = a.queries.length;
      for (let n = 0; n < 2; n++) {
        const answer = await raw(a, `${path}/page-2`, { 'accept-encoding': accept });
        expect(answer.status).toBe(200);
        expect(answer.headers['content-encoding']).toBe(encoding);
        expect(answer.headers.vary).toMatch(/accept-encoding/i);
        expect(answer.headers.etag).toBe(plain.headers.etag);
        expect(answer.body.length).toBeLessThan(plain.body.length);
        expect(decode(answer.body).toString()).toBe(html);
      }
      expect(a.queries.length).toBe(before);
    }
    // Refused with q=0: identity.
    const refused = await raw(a, `${path}/page-2`, { 'accept-encoding': 'gzip;q=0, br;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body.toString()).toBe(html);
    // An answer not kept (the search page) is compressed by the app as it is sent.
    const search = await raw(a, `${path}/~search?q=page`, { 'accept-encoding': 'gzip' });
    expect(search.status).toBe(200);
    expect(search.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(search.body).toString()).toContain('</html>');
  });

  it('shows a merge at once, on both instances', async () => {
    const { owner, space, path } = await publishedSite();
    await warmOnBoth(`${path}/`);
    await writePages(owner.token, space.id, [{ title: 'Zebra news', markdown: '# Zebra news\n\nStriped.\n' }]);
    await seenOnBoth(async (server) => expect(await text(server, `${path}/`)).toContain('Zebra news'));
    expect((await get(a, `${path}/zebra-news`)).status).toBe(200);
  });

  it('shows a customization change at once, on both instances', async () => {
    const { org, owner, site, path } = await publishedSite();
    await warmOnBoth(`${path}/`);
    const url = `/orgs/${org.id}/sites/${site.id}/customization`;
    const customization = (await http(a.url, owner.token, 'GET', url)).body;
    expect((await http(a.url, owner.token, 'PUT', url, { ...customization, title: 'Renamed handbook' })).status).toBe(200);
    await seenOnBoth(async (server) => expect(await text(server, `${path}/`)).toContain('Renamed handbook'));
  });

  it('stops serving an unpublished site at once, on both instances', async () => {
    const { org, api, site, path } = await publishedSite();
    await warmOnBoth(`${path}/`);
    await api.orgs.unpublishSite(org.id, site.id);
    await seenOnBoth(async (server) => expect((await get(server, `${path}/`)).status).toBe(404));
  });

  it('asks for sign-in once a site becomes visitor-auth, on both instances', async () => {
    const { org, api, site, path } = await publishedSite();
    await warmOnBoth(`${path}/page-1`);
    await api.orgs.updateSiteById(org.id, site.id, { visibility: 'visitor-auth' as never });
    await seenOnBoth(async (server) => expect((await get(server, `${path}/page-1`)).status).toBe(401));
  });

  it('serves nothing from memory while its notifications connection is lost, and forgets everything when it is back', async () => {
    const { owner, space, path } = await publishedSite();
    await warmOnBoth(`${path}/`);
    // The instances' LISTEN connections end (a, b, the limited one and the one keeping no page), as when the database restarts or the network fails.
    const listeners = () => a.db.$queryRaw<{ pid: number }[]>`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = ${APPLICATION} AND query = 'LISTEN "quire_published"'`;
    expect((await listeners()).length).toBe(4);
    await a.db.$queryRaw`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = ${APPLICATION} AND query = 'LISTEN "quire_published"'`;
    await expect.poll(async () => (await counted(b, `${path}/`)).statements.length, { timeout: 5000 }).toBeGreaterThan(0);
    await writePages(owner.token, space.id, [{ title: 'Written meanwhile', markdown: '# Written meanwhile\n' }]);
    for (const server of [a, b]) expect(await text(server, `${path}/`)).toContain('Written meanwhile');
    // Listening again (after a second), each instance serves from memory once more.
    await expect.poll(async () => (await listeners()).length, { timeout: 10_000, interval: 200 }).toBe(4);
    await warmOnBoth(`${path}/`);
    expect(await text(b, `${path}/`)).toContain('Written meanwhile');
  });

  it('reads the same few statements for a cold page whatever the size of the space', async () => {
    const cold = async (pages: number) => {
      const { owner, space, path } = await publishedSite(pages);
      // Three levels down, linking to a page and to another page's child, beside the space's pages.
      const text = (t: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: t, marks: [] }] });
      const link = (page: string, t: string) => ({ object: 'inline', type: 'link', data: { ref: { kind: 'page', page } }, nodes: [text(t)] });
      const insert = (title: string, extra: Record<string, unknown> = {}) => ({ operation: 'insert_page', title, document: { markdown: `# ${title}\n` }, ...extra });
      await writePages(owner.token, space.id, [
        () => [insert('Guide'), insert('Reference')],
        ([guide, reference]) => [insert('Part', { into: guide }), insert('Options', { into: reference })],
        ([, , part, options]) => [
          insert('Step', { into: part, document: { document: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [text('See '), link(options, 'the options'), text('.')] }] } } }),
        ],
      ]);
      await get(a, `${path}/page-1`).then((r) => r.text()); // the site's state and the revision's place, read once
      const page = await counted(a, `${path}/guide/part/step`);
      expect(page.status).toBe(200);
      expect(page.body).toContain(`href="${path}/reference/options"`);
      return page.statements;
    };
    const small = await cold(2);
    const large = await cold(120);
    expect(large.length, `2 pages:\n${small.join('\n')}\n\n120 pages:\n${large.join('\n')}`).toBe(small.length);
    expect(large.length, large.join('\n')).toBeLessThanOrEqual(COLD_STATEMENTS);
  });

  it('answers a kept page before the rest of the app as the full path does, counted, with its request ID', async () => {
    const { path } = await publishedSite();
    const page = `${path}/page-2`;
    await warmOnBoth(page);
    // A query sends the request down the full path (servePublished), which answers the same kept page.
    const full = `${page}?via=full`;
    const etag = (await raw(limited, page, {})).headers.etag!;
    const forms: Record<string, string>[] = [{}, { 'accept-encoding': 'gzip, br' }, { 'accept-encoding': 'gzip' }, { 'if-none-match': etag }];
    for (const headers of forms) await raw(limited, full, headers); // the compressed forms made
    const remaining: number[] = [];
    const comparable = ({ date: _, 'x-request-id': __, 'x-ratelimit-remaining': left, 'content-length': ___, ...rest }: IncomingHttpHeaders) => (remaining.push(Number(left)), rest);
    for (const headers of forms) {
      const before = limited.queries.length;
      const [early, late] = [await raw(limited, page, headers), await raw(limited, full, headers)];
      expect(limited.queries.length).toBe(before);
      expect(early.status).toBe(late.status);
      expect(comparable(early.headers), JSON.stringify(headers)).toEqual(comparable(late.headers));
      expect(early.body.equals(late.body)).toBe(true);
      if (early.status === 200) expect(early.headers['content-length']).toBe(String(early.body.length));
    }
    // HEAD: the page's headers, with its length, no body.
    const head = await new Promise<IncomingHttpHeaders>((resolve, reject) => request(`${limited.url}${page}`, { method: 'HEAD', localAddress: LIMITED_FROM }, (res) => (res.resume(), resolve(res.headers))).on('error', reject).end());
    expect(head.etag).toBe(etag);
    expect(head['content-length']).toBe(String((await raw(limited, page, {})).body.length));
    // Every answer counted once against the address's budget, early or late.
    expect(remaining.every((left, n) => n === 0 || left < remaining[n - 1])).toBe(true);
    expect((await raw(limited, page, { 'x-request-id': 'trace-42' })).headers['x-request-id']).toBe('trace-42');
  });

  it('answers a kept page on a verified custom hostname without SQL, as the full path does, and stops at once when the hostname is removed', async () => {
    const { org, owner, site } = await publishedSite();
    const hostname = `docs-${randomInt(1e9)}.example.com`;
    // What a proven claim writes (custom-hostnames.ts applyCheck): the site's verified hostname and the hostname's holder.
    await a.db.$transaction([
      a.db.site.update({ where: { id: site.id }, data: { hostname, hostnameClaimedAt: new Date(), hostnameVerifiedAt: new Date(), hostnameStatus: 'live' } }),
      a.db.verifiedHostname.create({ data: { hostname, siteId: site.id, organizationId: org.id } }),
    ]);
    const onHost = (path: string, headers: Record<string, string> = {}) => raw(a, path, { host: hostname, ...headers });
    // The write was not a mutation of this instance: its notification comes when it comes.
    await expect.poll(async () => (await onHost('/page-2')).body.toString(), { timeout: 5000, interval: 20 }).toContain('The first text of page 2.');
    const etag = (await onHost('/page-2')).headers.etag!;
    const forms: Record<string, string>[] = [{}, { 'accept-encoding': 'gzip, br' }, { 'accept-encoding': 'gzip' }, { 'if-none-match': etag }];
    for (const headers of forms) await onHost('/page-2?via=full', headers); // the compressed forms made
    const comparable = ({ date: _, 'x-request-id': __, ...rest }: IncomingHttpHeaders) => rest;
    for (const headers of forms) {
      const before = a.queries.length;
      const kept = await onHost('/page-2', headers);
      expect(a.queries.slice(before), JSON.stringify(headers)).toEqual([]);
      const full = await onHost('/page-2?via=full', headers);
      expect(kept.status).toBe(full.status);
      expect(comparable(kept.headers), JSON.stringify(headers)).toEqual(comparable(full.headers));
      expect(kept.body.equals(full.body)).toBe(true);
    }
    // The site's root, kept too.
    await onHost('/');
    const before = a.queries.length;
    expect((await onHost('/')).status).toBe(200);
    expect(a.queries.slice(before)).toEqual([]);
    // Removed: the hostname serves nothing at once (this instance heard its own write before answering).
    expect((await http(a.url, owner.token, 'DELETE', `/custom-hostnames/${hostname}`)).status).toBe(205);
    for (const path of ['/page-2', '/']) expect((await onHost(path)).body.toString()).not.toContain('The first text of page');
  });

  it('answers a revalidation of a page it does not keep 304 without reading, and 200 with a new ETag once the revision, the customization or the visitor differs', async () => {
    const { org, owner, api, space, site, path } = await publishedSite();
    const page = `${path}/page-2`;
    const revalidated = async (etag: string, headers: Record<string, string> = {}) => {
      const before = unkept.queries.length;
      const answer = await raw(unkept, page, { ...headers, 'if-none-match': etag });
      return { ...answer, etag: answer.headers.etag!, statements: unkept.queries.slice(before) };
    };
    const first = await raw(unkept, page, {});
    expect(first.status).toBe(200);
    const same = await revalidated(first.headers.etag!);
    expect(same.status).toBe(304);
    expect(same.statements, same.statements.join('\n')).toEqual([]);
    expect(unkept.queries.length).toBeGreaterThan(0);
    // Another instance's writes reach this one by notification: each check waits for it.
    const changed = async (etag: string, shows: string, headers: Record<string, string> = {}) => {
      await expect.poll(async () => (await revalidated(etag, headers)).status, { timeout: 5000, interval: 20 }).toBe(200);
      const answer = await revalidated(etag, headers);
      expect(answer.etag).not.toBe(etag);
      expect(answer.body.toString()).toContain(shows);
      expect((await revalidated(answer.etag, headers)).status).toBe(304);
      return answer.etag;
    };
    // A merge: a new revision.
    await writePages(owner.token, space.id, [{ title: 'Zebra news', markdown: '# Zebra news\n' }]);
    const merged = await changed(first.headers.etag!, 'Zebra news');
    // A customization change.
    const url = `/orgs/${org.id}/sites/${site.id}/customization`;
    const customization = (await http(a.url, owner.token, 'GET', url)).body;
    expect((await http(a.url, owner.token, 'PUT', url, { ...customization, title: 'Renamed handbook' })).status).toBe(200);
    await changed(merged, 'Renamed handbook');
    // Another visitor: a visitor-auth site's pages depend on the visitor's claims.
    await api.orgs.updateSiteById(org.id, site.id, { visibility: 'visitor-auth' as never });
    const { privateKey } = (await http(a.url, owner.token, 'GET', `/orgs/${org.id}/sites/${site.id}/publishing/auth`)).body;
    const as = async (claims: Record<string, unknown>) => ({ cookie: `quire_visitor_${site.id}=${await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(privateKey))}` });
    const [pro, team] = [await as({ plan: 'pro' }), await as({ plan: 'team' })];
    await expect.poll(async () => (await raw(unkept, page, pro)).status, { timeout: 5000, interval: 20 }).toBe(200);
    const asPro = (await raw(unkept, page, pro)).headers.etag!;
    expect((await revalidated(asPro, pro)).status).toBe(304);
    const asTeam = await revalidated(asPro, team);
    expect(asTeam.status).toBe(200);
    expect(asTeam.etag).not.toBe(asPro);
    expect(asTeam.body.toString()).toContain('Renamed handbook');
  });

  it('answers a revalidation of its search page 304 without searching, and 200 with new results once a merge changed them', async () => {
    const { owner, space, path } = await publishedSite();
    const search = `${path}/~search?q=zebra`;
    const revalidated = async (etag: string) => {
      const before = unkept.queries.length;
      const answer = await raw(unkept, search, { 'if-none-match': etag });
      return { ...answer, statements: unkept.queries.slice(before) };
    };
    const first = await raw(unkept, search, {});
    expect(first.status).toBe(200);
    expect(first.body.toString()).not.toContain('Zebra news');
    const same = await revalidated(first.headers.etag!);
    expect(same.status).toBe(304);
    expect(same.statements, same.statements.join('\n')).toEqual([]);
    // Another query is another answer.
    expect((await raw(unkept, `${path}/~search?q=page`, { 'if-none-match': first.headers.etag! })).status).toBe(200);
    // A merge that the search finds: the ETag changes with the revision, and the results show it.
    await writePages(owner.token, space.id, [{ title: 'Zebra news', markdown: '# Zebra news\n\nStriped.\n' }]);
    await expect.poll(async () => (await revalidated(first.headers.etag!)).status, { timeout: 5000, interval: 20 }).toBe(200);
    const after = await revalidated(first.headers.etag!);
    expect(after.headers.etag).not.toBe(first.headers.etag);
    expect(after.body.toString()).toContain('Zebra news');
  });

  it('keeps pages within its bound in bytes, the least recently used evicted', async () => {
    const cache = createPublishedCache(a.db, { maxPageBytes: 10_000 });
    try {
      await expect.poll(() => cache.serving, { timeout: 5000 }).toBe(true);
      const page = (n: number) => ({ status: 200, body: Buffer.alloc(3000, n), type: 'text/html; charset=utf-8', etag: `"${n}"`, cache: 'private, no-cache', encoded: {} });
      for (let n = 1; n <= 5; n++) cache.rememberPage(`page ${n}`, page(n));
      expect(cache.size.pageBytes).toBeLessThanOrEqual(10_000);
      expect(cache.size.pages).toBe(3);
      expect(cache.page('page 1')).toBeUndefined();
      expect(cache.page('page 5')?.body.equals(page(5).body)).toBe(true);
    } finally {
      await cache.close();
    }
  });
});

/** What a cold page may cost (page-content.ts): the page, its path and navigation in one statement, what its body links to in another. */
const COLD_STATEMENTS = 4;
