/**
 * Limits on every door, and hardening, through the real server: the WebSocket message size,
 * WebSocket connections per client address, WebSocket operations counted in the HTTP rate limit,
 * concurrent subscriptions per connection; the rate limit keyed on the authenticated token (on
 * the client address otherwise), so neither junk tokens nor variants of a real one escape it or
 * grow its store; a proxy's forwarded address and protocol honoured only under QUIRE_TRUST_PROXY;
 * the published sites' CSP without 'unsafe-inline' scripts, Secure site cookies over HTTPS, and
 * `X-Content-Type-Options: nosniff` on API answers.
 *
 * Each client speaks from an address of its own in 127.0.0.0/8, drawn afresh for each run, so the
 * budgets of one test (or of an earlier run, within the window) do not leak into another.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect as tcpConnect } from 'node:net';
import { createClient, type Client } from 'graphql-ws';
import { chromium } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../src/config.js';
import { SCRIPT_HASHES } from '../src/published/render/index.js';
import { CHROMIUM, CHROMIUM_ARGS, hasBrowser } from './helpers/chromium.js';
import { sdk } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { useServer, type TestServer } from './helpers/server.js';

const LIMITS = { QUIRE_RATE_LIMIT_WINDOW_SECONDS: '60', QUIRE_RATE_LIMIT_SYNC_MS: '0' };
/** A budget of 5 per window, 3 WebSocket connections per address, 2 subscriptions per connection; no proxy trusted. */
const strict = useServer({ env: () => ({ ...LIMITS, QUIRE_RATE_LIMIT: '5', QUIRE_WS_MAX_CONNECTIONS_PER_ADDRESS: '3', QUIRE_WS_MAX_SUBSCRIPTIONS: '2' }) });
/** Behind a proxy at 127.0.0.1, with a budget large enough to set up sites through the API. */
const proxied = useServer({ env: () => ({ ...LIMITS, QUIRE_RATE_LIMIT: '1000', QUIRE_TRUST_PROXY: '127.0.0.1' }) });

const octet = () => randomInt(2, 255);
/** A loopback address no other test (nor run) uses: the client address of one test. */
const freshAddress = () => `127.${octet()}.${octet()}.${octet()}`;
/** An address of the documentation range, as a proxy would forward it. */
const forwarded = () => `198.51.100.${octet()}`;

type Answer = { status: number; headers: IncomingHttpHeaders; body: string };

/** An HTTP request sent from `from` (a loopback address of this machine). */
function send(base: string, path: string, o: { from?: string; method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method: o.method ?? 'GET', headers: o.headers, localAddress: o.from }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

const wsUrl = (server: TestServer) => `${server.url.replace('http', 'ws')}/graphql`;

const clients: Client[] = [];
const sockets: WebSocket[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  for (const socket of sockets.splice(0)) socket.terminate();
});

/** A graphql-ws client speaking from `from`. */
function graphqlClient(server: TestServer, authorization: string, from: string): Client {
  class FromAddress extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { localAddress: from });
    }
  }
  const client = createClient({ url: wsUrl(server), webSocketImpl: FromAddress, connectionParams: { authorization }, retryAttempts: 0, lazy: true });
  clients.push(client);
  return client;
}

/** The one result of an operation (a refused one: its errors). */
function run(client: Client, query: string, variables?: Record<string, unknown>) {
  return new Promise<any>((resolve, reject) => {
    let result: unknown;
    client.subscribe({ query, variables }, { next: (value) => (result = value), error: (error) => (Array.isArray(error) ? resolve({ errors: error }) : reject(error)), complete: () => resolve(result) });
  });
}

/** A plain WebSocket on /graphql from `from`: opened, or refused with the upgrade's HTTP answer. */
function openSocket(server: TestServer, from: string) {
  return new Promise<{ socket?: WebSocket; refused?: { status: number; body: string } }>((resolve, reject) => {
    const socket = new WebSocket(wsUrl(server), 'graphql-transport-ws', { localAddress: from });
    sockets.push(socket);
    socket.once('open', () => resolve({ socket }));
    socket.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk));
      res.on('end', () => resolve({ refused: { status: res.statusCode!, body } }));
    });
    socket.once('error', reject);
  });
}

const rateLimitRows = async (server: TestServer, since: number) =>
  Number((await server.db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM quire_rate_limits WHERE expire >= ${since}`))[0].n);

describe('WebSocket limits', () => {
  it('closes a connection whose message exceeds the size limit with 1009, as soon as the frame announces it', async () => {
    // A raw client announces a 64 MiB text frame (under ws's own 100 MiB default) and streams it.
    const port = Number(new URL(strict.url).port);
    const socket = tcpConnect({ host: '127.0.0.1', port, localAddress: freshAddress() });
    socket.on('error', () => {}); // the server may cut the stream while it is being written
    let received = Buffer.alloc(0);
    socket.on('data', (chunk) => (received = Buffer.concat([received, chunk])));
    socket.write(
      `GET /graphql HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n`,
    );
    await expect.poll(() => received.toString('latin1')).toContain('\r\n\r\n');
    expect(received.toString('latin1')).toMatch(/^HTTP\/1\.1 101/);
    received = received.subarray(received.indexOf('\r\n\r\n') + 4);

    const header = Buffer.alloc(14);
    header[0] = 0x81; // FIN, text
    header[1] = 0x80 | 127; // masked, 64-bit length
    header.writeBigUInt64BE(64n * 1024n * 1024n, 2);
    header.fill(0, 10, 14); // mask key: zero, the payload goes as is
    socket.write(header);
    const before = process.memoryUsage().arrayBuffers;
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    for (let i = 0; i < 16 && !socket.destroyed; i++) await new Promise((resolve) => socket.write(chunk, resolve));
    // The server (this process) did not keep the 16 MiB it was sent.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(8 * 1024 * 1024);
    await expect.poll(() => received.length, { timeout: 3000 }).toBeGreaterThanOrEqual(4);
    expect(received[0]).toBe(0x88); // a close frame
    expect(received.readUInt16BE(2)).toBe(1009); // message too big
    socket.destroy();
  });

  it('has a default size limit of 1 MiB, as for HTTP bodies', async () => {
    const { socket } = await openSocket(strict, freshAddress());
    const closed = new Promise<number>((resolve) => socket!.once('close', resolve));
    socket!.send(JSON.stringify({ type: 'connection_init', payload: { padding: 'x'.repeat(1024 * 1024) } }));
    expect(await closed).toBe(1009);
  });

  it('refuses connections beyond the limit per client address, with a 429 naming it', async () => {
    const from = freshAddress();
    const open: { socket?: WebSocket }[] = [];
    for (let i = 0; i < 3; i++) open.push(await openSocket(strict, from));
    expect(open.every((o) => o.socket)).toBe(true);
    const refused = await openSocket(strict, from);
    expect(refused.refused?.status).toBe(429);
    expect(JSON.parse(refused.refused!.body).error.message).toMatch(/3 WebSocket connections per client address/);
    expect((await openSocket(strict, freshAddress())).socket, 'another address has its own').toBeDefined();
    // Once one closes, its place is free again.
    const gone = new Promise((resolve) => open[0].socket!.once('close', resolve));
    open[0].socket!.close();
    await gone;
    await expect.poll(async () => Boolean((await openSocket(strict, from)).socket)).toBe(true);
  });

  it('counts operations against the rate limit of the same token over HTTP, and refuses the rest with a clear error', async () => {
    const { org, owner } = await createOrg(strict.db);
    for (let i = 0; i < 2; i++) expect((await send(strict.url, `/v1/orgs/${org.id}`, { from: freshAddress(), headers: { authorization: `Bearer ${owner.token}` } })).status).toBe(200);
    const client = graphqlClient(strict, `Bearer ${owner.token}`, freshAddress());
    for (let i = 0; i < 3; i++) expect((await run(client, '{ viewer { id } }')).data.viewer.id).toBe(owner.id);
    const refused = await run(client, '{ viewer { id } }');
    expect(refused.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(refused.errors[0].message).toMatch(/Rate limit of 5 requests per 60 s exceeded; retry after \d+ s/);
    // And HTTP with that token is over the same budget.
    expect((await send(strict.url, `/v1/orgs/${org.id}`, { from: freshAddress(), headers: { authorization: `Bearer ${owner.token}` } })).status).toBe(429);
  });

  it('caps the subscriptions running at once on one connection', async () => {
    const { org, owner } = await createOrg(strict.db);
    const client = graphqlClient(strict, `Bearer ${owner.token}`, freshAddress());
    const events = 'subscription($id: ID!) { organizationEvents(organizationId: $id) { kind } }';
    const running = [0, 1].map(() => client.subscribe({ query: events, variables: { id: org.id } }, { next: () => {}, error: () => {}, complete: () => {} }));
    const third = await Promise.race([run(client, events, { id: org.id }), new Promise<any>((resolve) => setTimeout(() => resolve({ errors: [{ message: 'admitted' }] }), 3000))]);
    expect(third.errors[0].message).toMatch(/2 operations at once per connection/);
    running.forEach((stop) => stop());
  });
});

describe('the rate limit', () => {
  it('is keyed on the token, whatever the case and spacing of its Authorization header', async () => {
    const { org, owner } = await createOrg(strict.db);
    const from = freshAddress();
    const variants = [`Bearer ${owner.token}`, `bearer ${owner.token}`, `BEARER  ${owner.token}`, `Bearer\t${owner.token}`, `bEaReR ${owner.token} `, `Bearer   ${owner.token}`];
    const statuses = [];
    for (const authorization of variants) statuses.push((await send(strict.url, `/v1/orgs/${org.id}`, { from, headers: { authorization } })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    // The address itself was not charged: an anonymous request from it still has its budget.
    expect((await send(strict.url, `/v1/orgs/${org.id}`, { from })).status).toBe(401);
  });

  it('counts requests with junk tokens against the client address, and keeps one row for it', async () => {
    const since = Date.now() + 59_000; // rows written from now on expire a window later
    const before = await rateLimitRows(strict, since);
    const from = freshAddress();
    const statuses = [];
    for (let i = 0; i < 25; i++) statuses.push((await send(strict.url, '/v1/user', { from, headers: { authorization: `Bearer quire_${randomBytes(16).toString('hex')}` } })).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
    const refused = await send(strict.url, '/v1/user', { from, headers: { authorization: 'Bearer junk' } });
    expect(JSON.parse(refused.body).error.message).toMatch(/Rate limit of 5 requests per 60 s exceeded/);
    expect(await rateLimitRows(strict, since)).toBe(before + 1);
  });

  it('ignores X-Forwarded-For unless QUIRE_TRUST_PROXY trusts the peer, then counts the forwarded client', async () => {
    const remaining = (a: Answer) => Number(a.headers['x-ratelimit-remaining']);
    // No proxy trusted: the header changes nothing; the peer is the client.
    const from = freshAddress();
    const untrusted = [];
    for (const client of [forwarded(), forwarded()]) untrusted.push(remaining(await send(strict.url, '/v1/user', { from, headers: { 'x-forwarded-for': client } })));
    expect(untrusted).toEqual([4, 3]);
    // From the trusted proxy: each forwarded client has its own budget.
    const [a, b] = [forwarded(), forwarded()];
    const viaProxy = (client: string) => send(proxied.url, '/v1/user', { from: '127.0.0.1', headers: { 'x-forwarded-for': client } }).then(remaining);
    expect([await viaProxy(a), await viaProxy(a), await viaProxy(b)]).toEqual([999, 998, 999]);
    // Addresses a client wrote before the proxy's are not believed: the client is the proxy's peer.
    expect(await viaProxy(`10.1.2.3, ${a}`)).toBe(997);
    // A peer that is not the trusted proxy is counted as itself, whatever it forwards.
    expect(remaining(await send(proxied.url, '/v1/user', { from: freshAddress(), headers: { 'x-forwarded-for': a } }))).toBe(999);
  });

  it('takes QUIRE_TRUST_PROXY as a hop count or a list of addresses and ranges, and refuses anything else at start', () => {
    for (const setting of ['', '0', '1', '2', '10.0.0.0/8, 127.0.0.1', '::1, fd00::/8']) expect(loadConfig({ QUIRE_TRUST_PROXY: setting }).trustProxy).toBe(setting);
    for (const setting of ['true', 'loadbalancer', '10.0.0.0/99', '1.2.3']) expect(() => loadConfig({ QUIRE_TRUST_PROXY: setting }), setting).toThrow(/QUIRE_TRUST_PROXY: a number of proxy hops/);
  });
});

/** A published site of one page, `visibility` as given; its base URL on `server`. */
async function publishedSite(server: TestServer, visibility: string) {
  const { org, owner } = await createOrg(server.db);
  const api = sdk(server.url, owner.token);
  const space = (await api.orgs.createSpace(org.id, { title: 'Handbook' })).data;
  const cr = (await api.spaces.createChangeRequest(space.id, { subject: 'Content' })).data;
  const content = `/v1/spaces/${space.id}/change-requests/${cr.id}/content`;
  const inserted = await send(server.url, content, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ changes: [{ operation: 'insert_page', title: 'Welcome', document: { document: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Hello.', marks: [] }] }] }] } } }] }),
  });
  expect(inserted.status).toBeLessThan(300);
  await api.spaces.mergeChangeRequest(space.id, cr.id);
  const site = (await api.orgs.createSite(org.id, { title: 'Docs', visibility: visibility as never, spaces: [space.id] } as never)).data;
  await api.orgs.publishSite(org.id, site.id);
  return { api, org, owner, site, path: `/sites/${site.id}` };
}

describe('hardening', () => {
  it("sends published pages with a CSP whose script-src lists the scripts' hashes, without 'unsafe-inline'", async () => {
    const { path } = await publishedSite(proxied, 'public');
    const page = await send(proxied.url, `${path}/`);
    expect(page.status).toBe(200);
    const scriptSrc = String(page.headers['content-security-policy']).split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src'))!;
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    for (const source of SCRIPT_HASHES) expect(scriptSrc).toContain(source);
  });

  it.skipIf(!hasBrowser)("runs the page's own scripts under that CSP in Chromium, without a violation", async () => {
    const { path } = await publishedSite(proxied, 'public');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      const violations: string[] = [];
      page.on('console', (message) => void (/Content Security Policy/i.test(message.text()) && violations.push(message.text())));
      expect((await page.goto(`${proxied.url}${path}/`))?.status()).toBe(200);
      // The theme toggle is rendered hidden; the inline site script shows it and wires it.
      await page.waitForSelector('.theme-toggle', { state: 'visible', timeout: 5000 });
      await page.click('.theme-toggle');
      expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
      expect(violations).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('marks site cookies Secure when the request came over HTTPS through the trusted proxy only', async () => {
    const { api, org, site, path } = await publishedSite(proxied, 'share-link');
    const link = (await api.orgs.createSiteShareLink(org.id, site.id, { name: 'Partners' })).data;
    const key = new URL(link.urls.published!).searchParams.get('shareKey')!;
    const cookieOf = async (server: TestServer, from: string, headers: Record<string, string> = {}) => {
      const answer = await send(server.url, `${path}/?shareKey=${key}`, { from, headers });
      expect(answer.status).toBe(200);
      return String(answer.headers['set-cookie']);
    };
    expect(await cookieOf(proxied, '127.0.0.1', { 'x-forwarded-proto': 'https' })).toMatch(/; Secure/);
    expect(await cookieOf(proxied, '127.0.0.1')).not.toMatch(/Secure/);
    expect(await cookieOf(proxied, freshAddress(), { 'x-forwarded-proto': 'https' }), 'an untrusted peer').not.toMatch(/Secure/);
    expect(await cookieOf(strict, freshAddress(), { 'x-forwarded-proto': 'https' }), 'no proxy trusted').not.toMatch(/Secure/);
  });

  it('answers API requests with X-Content-Type-Options: nosniff, errors included', async () => {
    const { org, owner } = await createOrg(proxied.db);
    const auth = { authorization: `Bearer ${owner.token}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const answers = {
      rest: await send(proxied.url, `/v1/orgs/${org.id}`, { headers: auth }),
      restNotFound: await send(proxied.url, '/v1/orgs/org_missing', { headers: auth }),
      restUnauthorized: await send(proxied.url, '/v1/user'),
      graphql: await send(proxied.url, '/graphql', { method: 'POST', headers: json, body: '{"query":"{ viewer { id } }"}' }),
      graphqlError: await send(proxied.url, '/graphql', { method: 'POST', headers: json, body: '{"query":"{ nope }"}' }),
      tooLarge: await send(proxied.url, '/graphql', { method: 'POST', headers: json, body: `{"query":"${'x'.repeat(2 * 1024 * 1024)}"}` }),
      health: await send(proxied.url, '/healthz'),
      unknownMethod: await send(proxied.url, '/v1/user', { method: 'TRACE' }),
    };
    for (const [name, answer] of Object.entries(answers)) expect(answer.headers['x-content-type-options'], name).toBe('nosniff');
    expect(answers.tooLarge.status).toBe(413);
  });
});
