/**
 * Redis going away must not take events away from this instance (issue 21, item 7). A real
 * server whose REDIS_URL points to a TCP proxy in front of the test Redis: the test stops the
 * proxy (an outage: connections cut, new ones refused) and starts it again (the recovery).
 * While Redis is down, a subscriber of this instance still hears its organization's events and
 * its job's events, `/readyz` says the instance is degraded, and the log gets one warning rather
 * than one per reconnection attempt; once Redis is back, `/readyz` is ready again, events cross
 * instances again, and a subscriber hears each event once (not once locally and once from Redis).
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createPrismaClient, type Db } from '../src/db/client.js';
import { createEventBus, type EventBus } from '../src/events/bus.js';
import { createLogger } from '../src/observability/logger.js';
import { gqlOk, http } from './helpers/clients.js';
import { createOrg } from './helpers/factories.js';
import { REDIS_URL, redisReachable } from './helpers/redis.js';
import { sseResults, type SseResult } from './helpers/sse.js';
import { testDatabaseUrl } from './helpers/database-url.js';

/** A TCP proxy to the test Redis that the test can take down (cutting its connections) and bring back on the same port. */
async function redisProxy() {
  const target = new URL(REDIS_URL);
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const up = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 6379), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {});
        }
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.listen(port, '127.0.0.1', () => ((port = (server!.address() as net.AddressInfo).port), resolve()));
    });
  const down = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server ? server.close(() => resolve()) : resolve();
      server = undefined;
    });
  await up();
  return { url: () => `redis://127.0.0.1:${port}`, up, down };
}

/** A GraphQL subscription over SSE, read as it streams; `nth(i)` waits for its i-th result. */
function subscribe(baseUrl: string, token: string, query: string, variables: Record<string, unknown>) {
  const abort = new AbortController();
  const results: SseResult[] = [];
  const waiting: (() => void)[] = [];
  const started = fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
    signal: abort.signal,
  }).then((response) => {
    void (async () => {
      try {
        for await (const result of sseResults(response)) (results.push(result), waiting.splice(0).forEach((wake) => wake()));
      } catch {
        // aborted at the end of the test
      }
    })();
  });
  return {
    started,
    results,
    /** The `index`-th result (0-based), or a rejection after `timeoutMs`. */
    async nth(index: number, timeoutMs = 5000): Promise<SseResult> {
      const deadline = Date.now() + timeoutMs;
      while (results.length <= index) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no result #${index} within ${timeoutMs} ms (had ${JSON.stringify(results)})`);
        await new Promise<void>((resolve) => (waiting.push(resolve), setTimeout(resolve, left)));
      }
      return results[index];
    },
    close: () => abort.abort(),
  };
}

const ORG_EVENTS = `subscription($id: ID!) { organizationEvents(organizationId: $id) { kind subjectId } }`;
const JOB_EVENTS = `subscription($id: ID!) { job(id: $id) { state } }`;
const IMPORT = `mutation($cr: ID!, $url: String!) { importContent(changeRequest: $cr, url: $url, source: markdown) { id state } }`;
const CANCEL = `mutation($id: ID!) { cancelJob(id: $id) { id state } }`;

describe.runIf(redisReachable || process.env.CI)('a Redis outage', () => {
  const lines: { level: string; msg: string }[] = [];
  let proxy: Awaited<ReturnType<typeof redisProxy>>;
  let db: Db;
  let events: EventBus;
  let app: App;
  let url = '';
  let org: { id: string };
  let token = '';
  let downAt = 0;
  const subscriptions: { close(): void }[] = [];

  beforeAll(async () => {
    proxy = await redisProxy();
    const databaseUrl = testDatabaseUrl();
    // Job subscriptions re-read their job once a minute only: what arrives sooner came as an event.
    const config = { ...loadConfig({ PORT: '0', QUIRE_RATE_LIMIT: '0', QUIRE_JOB_POLL_SECONDS: '60', REDIS_URL: proxy.url() }), databaseUrl };
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
    db = createPrismaClient(databaseUrl, { poolMax: 5 });
    events = createEventBus({ redisUrl: proxy.url(), logger });
    app = buildApp({ db, config, logger, events });
    url = `http://127.0.0.1:${(await app.start(0, '127.0.0.1')).port}`;
    const created = await createOrg(db, 'Redis outage');
    org = created.org;
    token = created.owner.token;
  }, 30_000);

  afterAll(async () => {
    for (const subscription of subscriptions) subscription.close();
    await app?.stop();
    await events?.close();
    await db?.$disconnect();
    await proxy?.down();
  });

  const watch = (query: string, variables: Record<string, unknown>) => {
    const subscription = subscribe(url, token, query, variables);
    subscriptions.push(subscription);
    return subscription;
  };

  it('still delivers organization and job events to subscribers of this instance', async () => {
    await expect.poll(async () => (await fetch(`${url}/readyz`)).json(), { timeout: 10_000, interval: 100 }).toEqual({ status: 'ready' });
    await proxy.down();
    downAt = Date.now();
    const orgEvents = watch(ORG_EVENTS, { id: org.id });
    await orgEvents.started;
    const space = (await http(url, token, 'POST', `/orgs/${org.id}/spaces`, { title: 'During the outage' })).body;
    expect((await orgEvents.nth(0)).data.organizationEvents).toEqual({ kind: 'spaceCreated', subjectId: space.id });

    // A job nobody runs (this server has no worker): its cancellation is an event.
    const cr = (await http(url, token, 'POST', `/spaces/${space.id}/change-requests`, { subject: 'Import' })).body;
    const { importContent: job } = await gqlOk(url, token, IMPORT, { cr: cr.id, url: 'http://127.0.0.1:1/page.md' });
    const jobEvents = watch(JOB_EVENTS, { id: job.id });
    expect((await jobEvents.nth(0)).data.job.state).toBe('queued');
    await gqlOk(url, token, CANCEL, { id: job.id });
    expect((await jobEvents.nth(1, 3000)).data.job.state).toBe('cancelled');
  });

  it('says so on /readyz while Redis is down, with a bounded number of warnings', async () => {
    const readyz = await fetch(`${url}/readyz`);
    expect(readyz.status).toBe(200); // still serving: a load balancer keeps sending requests
    expect(await readyz.json()).toEqual({ status: 'degraded', redis: 'unavailable' });
    // Several seconds of reconnection attempts (every 50 ms at first, then every 2 s).
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, downAt + 5000 - Date.now())));
    const warnings = lines.filter((line) => ['warn', 'error'].includes(line.level) && /redis/i.test(line.msg));
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    expect(warnings.length).toBeLessThanOrEqual(2);
    expect(warnings[0].msg).toMatch(/only .*this instance/i);
  });

  it('recovers when Redis is back: ready again, events cross instances again, each delivered once', async () => {
    await proxy.up();
    await expect.poll(async () => (await fetch(`${url}/readyz`)).json(), { timeout: 15_000, interval: 200 }).toEqual({ status: 'ready' });
    expect(lines.some((line) => line.level === 'info' && /redis .*back/i.test(line.msg))).toBe(true);

    const orgEvents = watch(ORG_EVENTS, { id: org.id });
    await orgEvents.started;
    await new Promise((resolve) => setTimeout(resolve, 300)); // its Redis subscription made
    const space = (await http(url, token, 'POST', `/orgs/${org.id}/spaces`, { title: 'After the outage' })).body;
    expect((await orgEvents.nth(0)).data.organizationEvents).toEqual({ kind: 'spaceCreated', subjectId: space.id });

    // Another instance's event arrives through Redis.
    const other = createEventBus({ redisUrl: REDIS_URL });
    other.publish({ id: 'evt_other', kind: 'spaceUpdated', organizationId: org.id, subjectId: space.id, spaceId: space.id, siteId: null, actorId: 'usr_other', data: null, at: new Date().toISOString(), xid: null });
    expect((await orgEvents.nth(1)).data.organizationEvents).toEqual({ kind: 'spaceUpdated', subjectId: space.id });
    await other.close();

    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(orgEvents.results).toHaveLength(2);
  }, 30_000);
});
