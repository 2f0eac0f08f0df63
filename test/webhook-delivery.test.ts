/**
 * Webhook deliveries end to end, against local receivers (node:http on 127.0.0.1): events of the
 * outbox queued for the endpoints that want them, signed as Standard Webhooks says (verified with
 * its reference implementation, `standardwebhooks`), retried after 500s and time-outs in order per
 * endpoint, given up after the retry window, the endpoint turned off after failing for long (its
 * admins mailed), nothing for a rolled-back write, a hanging receiver holding up neither writes
 * nor other endpoints, redirects not followed, private addresses refused unless allowed,
 * redelivery, secret rotation and the delivery log.
 *
 * Each environment has a database of its own (helpers/processes.ts) with its own app and worker
 * and settings in fractions of a second: no other test file's worker runs these deliveries.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { createPrismaClient, type Db } from '../src/db/client.js';
import type { OrganizationEventKind } from '../src/domain/kernel/event-kinds.js';
import { newId } from '../src/domain/kernel/ids.js';
import { recordEvents } from '../src/domain/kernel/outbox.js';
import { Access } from '../src/domain/access/access.js';
import { createLoaders } from '../src/domain/loaders/index.js';
import { cancelJob } from '../src/domain/work/jobs/cancel.js';
import { recoverLostJobs } from '../src/jobs/sweeper.js';
import { deleteOldDeliveries } from '../src/domain/webhooks/delivery.js';
import { createEventBus } from '../src/events/bus.js';
import { webhookConsumer } from '../src/events/webhook-consumer.js';
import type { OutboxConsumer } from '../src/events/outbox-consumer.js';
import { startOutboxDispatcher } from '../src/events/outbox-dispatcher.js';
import { startWorker } from '../src/jobs/worker.js';
import { createLogger } from '../src/observability/logger.js';
import { http, sdk } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { ownDatabase } from './helpers/processes.js';
import { startSmtpServer } from './helpers/smtp.js';
import { testDatabaseUrl } from './helpers/database-url.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

// ——— a receiver ———

type Received = { path: string; headers: IncomingHttpHeaders; body: string; at: number };
/** How a path answers its `n`th request (from 1); one that does not answer hangs. */
type Behaviour = (res: ServerResponse, n: number) => unknown;

async function startReceiver() {
  const received: Received[] = [];
  const behaviours = new Map<string, Behaviour>();
  const counts = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      const behave = behaviours.get(path) ?? ((r) => r.writeHead(204).end());
      behave(res, n);
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanup.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  let next = 0;
  return {
    /** A fresh path of this receiver, answering as `behave` says (204 by default). */
    path(behave?: Behaviour) {
      const path = `/hook/${++next}`;
      if (behave) behaviours.set(path, behave);
      // The webhook API's own events (webhookEndpointUpdated…) are delivered too: the tests look at the others.
      const mine = (r: Received) => r.path === path && !JSON.parse(r.body || '{}').type?.startsWith('webhookEndpoint');
      return { url: `${base}${path}`, received: () => received.filter(mine), requests: () => received.filter((r) => r.path === path) };
    },
  };
}

// ——— an environment: database, app, worker ———

async function startEnvironment(prefix: string, env: Record<string, string>) {
  const database = await ownDatabase(testDatabaseUrl(), prefix);
  cleanup.push(() => database.drop());
  const config: Config = { ...loadConfig({ PORT: '0', HOST: '127.0.0.1', QUIRE_RATE_LIMIT: '0', ...env }), databaseUrl: database.url };
  const logger = createLogger({ level: process.env.QUIRE_TEST_LOG ? 'debug' : 'silent' });
  const db = createPrismaClient(database.url, { poolMax: 5 });
  const workerDb = createPrismaClient(database.url, { poolMax: 4 });
  const events = createEventBus({ logger });
  const worker = await startWorker(database.url, { db: workerDb, events, logger, config });
  const app = buildApp({ db, config, events, logger });
  const { port } = await app.start(0, '127.0.0.1');
  // Each step on its own (cleanup runs them last first): the database is dropped once nothing holds it.
  cleanup.push(() => db.$disconnect(), () => workerDb.$disconnect(), () => events.close(), () => worker.stop(), () => app.stop({ graceMs: 0 }));
  const baseUrl = `http://127.0.0.1:${port}`;

  /** An organization, its admin, and an endpoint of it (its ID and secret). */
  async function endpoint(url: string, body: Record<string, unknown> = {}, existing?: Awaited<ReturnType<typeof createOrg>>) {
    const { org, owner } = existing ?? (await createOrg(db));
    // Made off, then turned on behind the API's back: its own creation event is not among what it receives.
    const created = await http(baseUrl, owner.token, 'POST', `/orgs/${org.id}/webhooks`, { url, ...body, active: false });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const dispatched = () => db.outboxEvent.count({ where: { subjectId: created.body.id, dispatchedAt: null } }).then((n) => n === 0);
    await until('its creation dispatched', dispatched);
    if (body.active !== false) await db.webhookEndpoint.update({ where: { id: created.body.id }, data: { active: true } });
    return { org, owner, id: created.body.id as string, secret: created.body.secret as string, base: `/orgs/${org.id}/webhooks/${created.body.id}` };
  }

  /** Records events of `organizationId` as a write would (committed, then dispatched by the app). */
  async function record(organizationId: string, kinds: OrganizationEventKind[]): Promise<string[]> {
    return db.$transaction((tx) => recordEvents(tx, kinds.map((kind, i) => ({ kind, organizationId, subjectId: `${kind}-${i}`, actorId: null, data: { n: i } }))));
  }

  return { db, baseUrl, config, endpoint, record, database };
}

const verify = (secret: string, r: Received) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>);

describe('webhook delivery', () => {
  let env: Awaited<ReturnType<typeof startEnvironment>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
    env = await startEnvironment('quire_webhooks', {
      QUIRE_FETCH_ALLOW_PRIVATE_NETWORKS: 'true',
      QUIRE_WEBHOOK_RETRY_BASE_SECONDS: '0.1',
      QUIRE_WEBHOOK_TIMEOUT_SECONDS: '1',
      QUIRE_WEBHOOK_CONCURRENCY: '4',
    });
  }, 60_000);

  it('delivers every event the endpoint wants, signed for the reference verifier, with the event ID as webhook-id', async () => {
    const all = receiver.path();
    const some = receiver.path();
    const a = await env.endpoint(all.url);
    const b = await env.endpoint(some.url, { events: ['spaceCreated', 'collectionDeleted'] }, { org: { id: a.org.id } as never, owner: a.owner });
    const ids = await env.record(a.org.id, ['spaceCreated', 'spaceUpdated', 'collectionDeleted', 'teamCreated']);
    const received = await until('four deliveries', () => all.received().length >= 4 && all.received());
    await until('two deliveries', () => some.received().length >= 2);
    await sleep(300);
    // Only the kinds asked for; every event to the endpoint that wants all.
    expect(all.received().map((r) => r.headers['webhook-id'])).toEqual(ids);
    expect(some.received().map((r) => JSON.parse(r.body).type)).toEqual(['spaceCreated', 'collectionDeleted']);
    expect(some.received().map((r) => r.headers['webhook-id'])).toEqual([ids[0], ids[2]]);
    const event = await env.db.outboxEvent.findUniqueOrThrow({ where: { id: ids[0] } });
    for (const r of received) expect(r.headers['content-type']).toBe('application/json');
    expect(verify(a.secret, received[0])).toEqual({
      type: 'spaceCreated',
      timestamp: event.createdAt.toISOString(),
      data: { n: 0, id: ids[0], organizationId: a.org.id, subjectId: 'spaceCreated-0', spaceId: null, siteId: null, actorId: null },
    });
    for (const r of some.received()) expect(() => verify(b.secret, r)).not.toThrow();
    // Another endpoint's secret does not verify it.
    expect(() => verify(b.secret, received[1])).toThrow();
    expect(Math.abs(Number(received[0].headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);
  });

  it('delivers events of API writes, and of no other organization', async () => {
    const hook = receiver.path();
    const { org, owner, id } = await env.endpoint(hook.url, { events: ['spaceCreated'] });
    const other = await createOrg(env.db);
    await sdk(env.baseUrl, other.owner.token).orgs.createSpace(other.org.id, { title: 'Elsewhere' });
    const space = (await sdk(env.baseUrl, owner.token).orgs.createSpace(org.id, { title: 'Announced' })).data;
    const [r] = await until('the delivery', () => hook.received().length > 0 && hook.received());
    expect(JSON.parse(r.body)).toMatchObject({ type: 'spaceCreated', data: { subjectId: space.id, spaceId: space.id, actorId: owner.id, organizationId: org.id } });
    await sleep(500);
    expect(hook.received()).toHaveLength(1);
    expect(await env.db.webhookDelivery.count({ where: { endpointId: id } })).toBe(1);
  });

  it('retries after 500s with the same webhook-id, keeping the order of the endpoint\'s queue', async () => {
    const hook = receiver.path((res, n) => res.writeHead(n <= 2 ? 500 : 200).end('ok'));
    const { org, id, secret, owner, base } = await env.endpoint(hook.url);
    const ids = await env.record(org.id, ['spaceCreated', 'spaceUpdated', 'spaceDeleted']);
    await until('five requests', () => hook.received().length >= 5);
    await sleep(300);
    // The head is retried until it succeeds; nothing overtakes it.
    expect(hook.received().map((r) => r.headers['webhook-id'])).toEqual([ids[0], ids[0], ids[0], ids[1], ids[2]]);
    for (const r of hook.received()) expect(() => verify(secret, r)).not.toThrow();
    const deliveries = await http(env.baseUrl, owner.token, 'GET', `${base}/deliveries`);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.count).toBe(3);
    const first = deliveries.body.items.find((d: { eventId: string }) => d.eventId === ids[0]);
    expect(first).toMatchObject({ object: 'webhook-delivery', webhook: id, kind: 'spaceCreated', status: 'delivered', attempts: 3, lastStatusCode: 200 });
    expect(first.attemptLog.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 500, 200]);
    expect(first.attemptLog[0]).toMatchObject({ attempt: 1, error: 'HTTP 500', latencyMs: expect.any(Number), at: expect.any(String) });
    expect(first.payload).toEqual(JSON.parse(hook.received()[0].body));
    // The endpoint failed, then recovered.
    expect((await http(env.baseUrl, owner.token, 'GET', base)).body.failingSince).toBeUndefined();
    const pending = await http(env.baseUrl, owner.token, 'GET', `${base}/deliveries?status=failed`);
    expect(pending.body).toEqual({ items: [], count: 0 });
    const one = await http(env.baseUrl, owner.token, 'GET', `${base}/deliveries/${first.id}`);
    expect(one).toEqual({ status: 200, body: first });
  });

  it('retries after a time-out', async () => {
    const hook = receiver.path((res, n) => (n === 1 ? undefined : res.writeHead(200).end()));
    const { org, id } = await env.endpoint(hook.url);
    const [eventId] = await env.record(org.id, ['spaceCreated']);
    await until('two requests', () => hook.received().length >= 2);
    const delivery = await until('delivered', () => env.db.webhookDelivery.findFirst({ where: { endpointId: id, status: 'delivered' }, include: { attemptsLog: { orderBy: { attempt: 'asc' } } } }));
    expect(delivery.eventId).toBe(eventId);
    expect(delivery.attemptsLog.map((a) => [a.statusCode, a.error])).toEqual([
      [null, 'No answer within 1 s'],
      [200, null],
    ]);
    expect(delivery.attemptsLog[0].latencyMs).toBeGreaterThanOrEqual(900);
  });

  it('a receiver that hangs delays neither a write nor another endpoint', async () => {
    const hanging = receiver.path(() => undefined);
    const fast = receiver.path();
    const slow = await env.endpoint(hanging.url);
    await env.endpoint(fast.url, {}, { org: slow.org as never, owner: slow.owner });
    await env.record(slow.org.id, ['spaceCreated']);
    await until('the hanging receiver called', () => hanging.requests().length >= 1);
    const started = Date.now();
    await env.record(slow.org.id, ['spaceUpdated']);
    const write = Date.now() - started;
    const api = sdk(env.baseUrl, slow.owner.token);
    const startedApi = Date.now();
    await api.orgs.createSpace(slow.org.id, { title: 'While it hangs' });
    const apiWrite = Date.now() - startedApi;
    expect(write).toBeLessThan(500);
    expect(apiWrite).toBeLessThan(1000);
    // The other endpoint got all three while the first one's head was still hanging or retrying.
    await until('the fast endpoint', () => fast.received().length >= 3, 3000);
    expect(await env.db.webhookDelivery.count({ where: { endpointId: slow.id, status: 'delivered' } })).toBe(0);
  });

  it('does not follow redirects', async () => {
    const target = receiver.path();
    const hook = receiver.path((res) => res.writeHead(307, { location: target.url }).end());
    const { org, id } = await env.endpoint(hook.url);
    await env.record(org.id, ['spaceCreated']);
    const delivery = await until('an attempt', () => env.db.webhookDelivery.findFirst({ where: { endpointId: id, attempts: { gte: 1 } } }));
    expect(delivery).toMatchObject({ status: 'pending', lastStatusCode: 307, lastError: 'HTTP 307: redirects are not followed' });
    await sleep(300);
    expect(target.received()).toHaveLength(0);
  });

  it('delivers nothing for a write that rolls back', async () => {
    const hook = receiver.path();
    const { org, id } = await env.endpoint(hook.url);
    await expect(
      env.db.$transaction(async (tx) => {
        await recordEvents(tx, { kind: 'spaceCreated', organizationId: org.id, subjectId: 'rolled-back', actorId: null });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const [committed] = await env.record(org.id, ['spaceUpdated']);
    await until('the committed one', () => hook.received().length >= 1);
    await sleep(300);
    expect(hook.received().map((r) => r.headers['webhook-id'])).toEqual([committed]);
    expect(await env.db.webhookDelivery.count({ where: { endpointId: id } })).toBe(1);
  });

  it('queues an event once even when its dispatch is retried', async () => {
    const hook = receiver.path();
    const { org, id } = await env.endpoint(hook.url);
    // A dispatcher whose second consumer fails its first claim: the claim rolls back, deliveries
    // included, and the event comes again. Writes through its own client name it, so it claims them.
    const client = createPrismaClient(env.database.url, { poolMax: 2 });
    let failed = 0;
    const flaky: OutboxConsumer = {
      name: 'flaky',
      consume() {
        if (failed++ === 0) throw new Error('flaky');
      },
    };
    const dispatcher = startOutboxDispatcher({ db: client, consumers: [webhookConsumer(), flaky], retentionMs: 3600_000, pollMs: 100_000 })!;
    try {
      const ids = await client.$transaction((tx) => recordEvents(tx, { kind: 'spaceCreated', organizationId: org.id, subjectId: 'once', actorId: null }));
      await until('the failed claim', () => failed >= 1);
      await until('dispatched', async () => (await dispatcher.dispatch({ ids }), (await client.outboxEvent.findUniqueOrThrow({ where: { id: ids[0] } })).dispatchedAt));
      await until('delivered', () => hook.received().length >= 1);
      await sleep(500);
      expect(failed).toBe(2);
      expect(hook.received().map((r) => r.headers['webhook-id'])).toEqual(ids);
      expect(await env.db.webhookDelivery.count({ where: { endpointId: id, eventId: ids[0] } })).toBe(1);
    } finally {
      await dispatcher.stop();
      await client.$disconnect();
    }
  });

  it('redelivers a delivery: the same webhook-id and body, after what is pending', async () => {
    const hook = receiver.path();
    const { org, owner, base, secret } = await env.endpoint(hook.url);
    await env.record(org.id, ['spaceCreated']);
    await until('delivered', () => hook.received().length >= 1);
    // The receiver has the request before the runner records its answer: wait for the record.
    const [first] = await until('recorded as delivered', async () => {
      const items = (await http(env.baseUrl, owner.token, 'GET', `${base}/deliveries?status=delivered`)).body.items;
      return items.length > 0 && items;
    });
    const again = await http(env.baseUrl, owner.token, 'POST', `${base}/deliveries/${first.id}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ status: 'pending', redeliveryOf: first.id, eventId: first.eventId, attempts: 0, payload: first.payload });
    await until('redelivered', () => hook.received().length >= 2);
    const [a, b] = hook.received();
    expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
    expect(b.body).toBe(a.body);
    expect(() => verify(secret, b)).not.toThrow();
    const log = await http(env.baseUrl, owner.token, 'GET', `${base}/deliveries`);
    expect(log.body.items.map((d: { id: string; redeliveryOf?: string }) => d.redeliveryOf ?? null)).toEqual([first.id, null]);
    // Another organization's admin cannot.
    const stranger = (await createOrg(env.db)).owner;
    expect((await http(env.baseUrl, stranger.token, 'POST', `${base}/deliveries/${first.id}/redeliver`)).status).toBe(404);
    const reader = await createActor(env.db, { org: org.id, role: 'read' });
    expect((await http(env.baseUrl, reader.token, 'POST', `${base}/deliveries/${first.id}/redeliver`)).status).toBe(403);
  });

  it('signs with both secrets while a rotated-out one is honoured', async () => {
    const hook = receiver.path();
    const { org, owner, base, secret: previous } = await env.endpoint(hook.url);
    const { body: rotated } = await http(env.baseUrl, owner.token, 'POST', `${base}/secret`);
    await env.record(org.id, ['spaceCreated']);
    const [r] = await until('delivered', () => hook.received().length > 0 && hook.received());
    expect(String(r.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(() => verify(rotated.secret, r)).not.toThrow();
    expect(() => verify(previous, r)).not.toThrow();
    // Once the grace period is over, only the new one signs.
    await env.db.webhookEndpoint.updateMany({ where: { organizationId: org.id }, data: { previousSecretExpiresAt: new Date(Date.now() - 1000) } });
    await env.record(org.id, ['spaceUpdated']);
    const later = await until('delivered', () => hook.received().length >= 2 && hook.received()[1]);
    expect(String(later.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(() => verify(rotated.secret, later)).not.toThrow();
    expect(() => verify(previous, later)).toThrow();
  });

  it('delivers the end of a job (jobFinished, recorded as the job ends)', async () => {
    const hook = receiver.path();
    const { org, owner, secret } = await env.endpoint(hook.url, { events: ['jobFinished'] });
    const api = sdk(env.baseUrl, owner.token);
    const space = (await api.orgs.createSpace(org.id, { title: 'Original' })).data;
    const copy = await http(env.baseUrl, owner.token, 'POST', `/spaces/${space.id}/duplicate`);
    expect(copy.status, JSON.stringify(copy.body)).toBeLessThan(300);
    const [r] = await until('jobFinished', () => hook.received().length > 0 && hook.received());
    const job = await env.db.job.findFirstOrThrow({ where: { organizationId: org.id, kind: 'space_duplicate' } });
    expect(job.state).toBe('succeeded');
    expect(verify(secret, r)).toMatchObject({ type: 'jobFinished', data: { subjectId: job.id, spaceId: space.id, actorId: owner.id, kind: 'space_duplicate', state: 'succeeded' } });
    const events = await env.db.outboxEvent.findMany({ where: { organizationId: org.id, kind: 'jobFinished' } });
    expect(events).toHaveLength(1);
  });

  it('deletes deliveries and their attempts past the log\'s retention, and only those', async () => {
    const hook = receiver.path();
    const { id } = await env.endpoint(hook.url, { active: false });
    const day = 24 * 3600_000;
    const make = (ageDays: number, status: 'pending' | 'delivered' | 'failed') => ({
      id: newId('WebhookDelivery'),
      endpointId: id,
      eventId: newId('OutboxEvent'),
      kind: 'spaceCreated',
      payload: '{}',
      status,
      createdAt: new Date(Date.now() - ageDays * day),
    });
    const rows = [make(31, 'delivered'), make(40, 'failed'), make(45, 'pending'), make(29, 'delivered'), make(1, 'pending')];
    await env.db.webhookDelivery.createMany({ data: rows });
    await env.db.webhookAttempt.create({ data: { id: newId('WebhookAttempt'), deliveryId: rows[0].id, attempt: 1, latencyMs: 3, statusCode: 200 } });
    expect(await deleteOldDeliveries(env.db, env.config.webhooks.logRetentionMs, 2)).toBe(3);
    expect((await env.db.webhookDelivery.findMany({ where: { endpointId: id }, select: { id: true } })).map((d) => d.id).sort()).toEqual([rows[3].id, rows[4].id].sort());
    expect(await env.db.webhookAttempt.count({ where: { deliveryId: rows[0].id } })).toBe(0);
  });

  it('records jobFinished when a queued job is cancelled and when the sweeper gives a lost one up', async () => {
    const { org, owner } = await createOrg(env.db);
    const job = (state: 'queued' | 'running', extra: Record<string, unknown> = {}) =>
      env.db.job.create({ data: { id: newId('Job'), organizationId: org.id, kind: 'import', state, createdById: owner.id, ...extra } });
    const queued = await job('queued');
    const access = new Access(createLoaders(env.db, owner.id), owner.id);
    expect((await cancelJob(env.db, access, queued.id)).state).toBe('cancelled');
    const lost = await job('running', { attempts: 3, heartbeatAt: new Date(Date.now() - 3600_000), workerId: 'gone' });
    // Given up by this sweep (or by the environment's worker's own, should it come first).
    await recoverLostJobs(env.db, createEventBus({ logger: createLogger({ level: 'silent' }) }), 1000, { jobMaxAttempts: 3, jobTimeBudgetMs: 1000 });
    expect((await env.db.job.findUniqueOrThrow({ where: { id: lost.id } })).state).toBe('failed');
    const events = await env.db.outboxEvent.findMany({ where: { organizationId: org.id, kind: 'jobFinished' }, orderBy: { seq: 'asc' } });
    expect(events.map((e) => [e.subjectId, e.actorId, e.data])).toEqual([
      [queued.id, owner.id, { kind: 'import', state: 'cancelled' }],
      [lost.id, owner.id, { kind: 'import', state: 'failed' }],
    ]);
  });

  it('keeps an inactive endpoint\'s queue until it is turned on again, and queues nothing new for it', async () => {
    const hook = receiver.path();
    const { org, owner, base, id } = await env.endpoint(hook.url, { active: false });
    await env.record(org.id, ['spaceCreated']);
    await sleep(500);
    expect(await env.db.webhookDelivery.count({ where: { endpointId: id } })).toBe(0);
    await http(env.baseUrl, owner.token, 'PATCH', base, { active: true });
    const [eventId] = await env.record(org.id, ['spaceUpdated']);
    await until('delivered', () => hook.received().length >= 1);
    expect(hook.received().map((r) => r.headers['webhook-id'])).toEqual([eventId]);
  });
});

describe('webhook delivery to private addresses, given up and disabled', () => {
  let env: Awaited<ReturnType<typeof startEnvironment>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  beforeAll(async () => {
    receiver = await startReceiver();
    smtp = await startSmtpServer();
    cleanup.push(() => smtp.close());
    env = await startEnvironment('quire_webhooks_strict', {
      QUIRE_FETCH_ALLOW_PRIVATE_NETWORKS: 'false',
      QUIRE_WEBHOOK_RETRY_BASE_SECONDS: '0.1',
      QUIRE_WEBHOOK_RETRY_HOURS: String(1.5 / 3600),
      QUIRE_WEBHOOK_DISABLE_AFTER_HOURS: String(0.5 / 3600),
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    });
  }, 60_000);

  it('refuses a private address, gives the delivery up after the retry window, turns the endpoint off and mails its admins', async () => {
    const hook = receiver.path();
    const { org, owner, base, id } = await env.endpoint(hook.url);
    const otherAdmin = await createActor(env.db, { org: org.id, role: 'admin' });
    const reader = await createActor(env.db, { org: org.id, role: 'read' });
    await env.record(org.id, ['spaceCreated', 'spaceUpdated']);
    const endpoint = await until('turned off', async () => {
      const row = await env.db.webhookEndpoint.findUniqueOrThrow({ where: { id } });
      return !row.active && row;
    });
    expect(hook.received()).toHaveLength(0);
    expect(endpoint.disabledAt).not.toBeNull();
    expect(endpoint.disabledReason).toContain('Every delivery failed');
    const [first] = await env.db.webhookDelivery.findMany({ where: { endpointId: id }, orderBy: { seq: 'asc' } });
    expect(first.status).toBe('failed');
    expect(first.attempts).toBeGreaterThanOrEqual(2);
    expect(first.lastStatusCode).toBeNull();
    expect(first.lastError).toContain('only reach public addresses');
    // Turned off: recorded as an event, and its admins told.
    const event = await env.db.outboxEvent.findFirst({ where: { organizationId: org.id, kind: 'webhookEndpointDisabled' } });
    expect(event).toMatchObject({ subjectId: id, actorId: null, data: { reason: endpoint.disabledReason } });
    const [mail] = await smtp.waitFor(owner.email);
    expect(mail.subject).toContain('webhook endpoint');
    expect(mail.text).toContain(hook.url);
    expect(await smtp.waitFor(otherAdmin.email)).toHaveLength(1);
    expect(smtp.to(reader.email)).toHaveLength(0);
    // The API shows why; turning it on again clears it.
    const shown = (await http(env.baseUrl, owner.token, 'GET', base)).body;
    expect(shown).toMatchObject({ active: false, disabledReason: endpoint.disabledReason, disabledAt: expect.any(String), failingSince: expect.any(String) });
    const on = (await http(env.baseUrl, owner.token, 'PATCH', base, { active: true })).body;
    expect(on).toMatchObject({ active: true });
    expect(on.disabledReason).toBeUndefined();
    expect(on.disabledAt).toBeUndefined();
    expect(on.failingSince).toBeUndefined();
  });
});
