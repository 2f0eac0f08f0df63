/**
 * The outbox: every committed write records its events in its own transaction, and a dispatcher
 * delivers them after commit, at least once, each with a stable ID — to subscribers on this
 * instance and, through Redis, on others; from the API, the CLI and the worker alike. A rolled-back
 * write announces nothing; rows nobody dispatched are taken by the next dispatcher; dispatched
 * rows are deleted after the retention period.
 *
 * On databases of the file's own (helpers/processes.ts): no other test file's server dispatches
 * their rows, or runs their jobs. The CLI and the worker run as `node dist/main.js` (build first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { createPrismaClient, type Db } from '../src/db/client.js';
import { familyOf } from '../src/domain/access/event-audience.js';
import { ORGANIZATION_EVENT_KINDS } from '../src/domain/kernel/event-kinds.js';
import { newId } from '../src/domain/kernel/ids.js';
import { notification, OUTBOX_CHANNEL, outboxOrigin, recordEvents } from '../src/domain/kernel/outbox.js';
import type { OutboxConsumer, OutboxEventRow } from '../src/events/outbox-consumer.js';
import { startOutboxDispatcher, type OutboxDispatcher } from '../src/events/outbox-dispatcher.js';
import { gql, sdk, sdkError } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { killAll, ownDatabase, startQuire, WORKER_READY } from './helpers/processes.js';
import { REDIS_URL, redisReachable } from './helpers/redis.js';
import { postSubscription, sseResults, type SseResult } from './helpers/sse.js';
import { testDatabaseUrl } from './helpers/database-url.js';

const DAY = 24 * 3600 * 1000;
const EVENTS = `subscription($id: ID!) { organizationEvents(organizationId: $id) { id kind organizationId subjectId spaceId siteId actorId data } }`;

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  killAll();
  for (const step of cleanup.reverse()) await step().catch(() => {});
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A subscriber over SSE: `next()` waits for its next event, `quiet(ms)` says none came meanwhile. */
async function subscribe(baseUrl: string, token: string, organizationId: string) {
  const abort = new AbortController();
  cleanup.push(async () => abort.abort());
  const response = await postSubscription(baseUrl, token, EVENTS, { id: organizationId }, abort.signal);
  const queue: SseResult[] = [];
  const waiting: ((r: SseResult) => void)[] = [];
  void (async () => {
    try {
      for await (const result of sseResults(response)) (waiting.shift() ?? ((r: SseResult) => queue.push(r)))(result);
    } catch {
      // aborted at the end
    }
  })();
  await sleep(300); // the subscription listens a moment after its answer began
  return {
    async next(timeoutMs = 8000): Promise<any> {
      const result =
        queue.shift() ??
        (await new Promise<SseResult>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no event within ${timeoutMs} ms`)), timeoutMs);
          waiting.push((r) => (clearTimeout(timer), resolve(r)));
        }));
      if (result.errors) throw new Error(JSON.stringify(result.errors));
      return result.data.organizationEvents;
    },
    async quiet(ms: number): Promise<void> {
      await sleep(ms);
      expect(queue.map((r) => r.data?.organizationEvents)).toEqual([]);
    },
  };
}

/** An app of its own on `url` (its own client, so its writes are dispatched by its own dispatcher). */
async function startApp(url: string, env: Record<string, string> = {}): Promise<{ app: App; db: Db; baseUrl: string }> {
  const db = createPrismaClient(url, { poolMax: 3 });
  const config: Config = { ...loadConfig({ PORT: '0', HOST: '127.0.0.1', QUIRE_RATE_LIMIT: '0', QUIRE_IMPORT_WAIT_SECONDS: '0', ...env }), databaseUrl: url };
  const app = buildApp({ db, config });
  const { port } = await app.start(0, '127.0.0.1');
  cleanup.push(async () => {
    await app.stop({ graceMs: 0 });
    await db.$disconnect();
  });
  return { app, db, baseUrl: `http://127.0.0.1:${port}` };
}

describe('events through the outbox, to subscribers', () => {
  let database: { url: string; drop(): Promise<void> };
  let server: { db: Db; baseUrl: string };
  beforeAll(async () => {
    database = await ownDatabase(testDatabaseUrl(), 'quire_outbox');
    cleanup.push(() => database.drop());
    server = await startApp(database.url);
  }, 60_000);

  it('delivers a write made through the API, with the ID of its outbox row, to those who may see it', async () => {
    const { org, owner } = await createOrg(server.db);
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    // The guest's joining is an event too, committed before the subscriptions began: left out even if dispatched after.
    const events = await subscribe(server.baseUrl, owner.token, org.id);
    const guestEvents = await subscribe(server.baseUrl, guest.token, org.id);
    const space = (await sdk(server.baseUrl, owner.token).orgs.createSpace(org.id, { title: 'Announced' })).data;
    const event = await events.next();
    expect(event).toMatchObject({ kind: 'spaceCreated', organizationId: org.id, subjectId: space.id, spaceId: space.id, siteId: null, actorId: owner.id });
    expect(event.id).toMatch(/^evt_/);
    const row = await server.db.outboxEvent.findUniqueOrThrow({ where: { id: event.id } });
    expect(row).toMatchObject({ kind: 'spaceCreated', subjectId: space.id, actorId: owner.id });
    expect(row.dispatchedAt).not.toBeNull();
    // The guest cannot view the space: not told (and told of nothing else meanwhile).
    await guestEvents.quiet(500);
    await events.quiet(0);
  });

  it('leaves out an event committed before the subscription began, though dispatched after it', async () => {
    const { org, owner } = await createOrg(server.db);
    const earlier = await subscribe(server.baseUrl, owner.token, org.id);
    // Committed, its notification lost: the row waits for a dispatcher.
    const early = newId('OutboxEvent');
    await server.db.$executeRaw`INSERT INTO "OutboxEvent" ("id", "organizationId", "kind", "subjectId", "actorId") VALUES (${early}, ${org.id}, 'organizationUpdated', ${org.id}, ${owner.id})`;
    const later = await subscribe(server.baseUrl, owner.token, org.id);
    // Dispatched now: told to the subscription that began before it committed, not to the one that began after.
    await server.db.$executeRaw`SELECT pg_notify(${OUTBOX_CHANNEL}, ${notification('', [early])})`;
    expect(await earlier.next()).toMatchObject({ id: early, kind: 'organizationUpdated' });
    const collection = (await sdk(server.baseUrl, owner.token).orgs.createCollection(org.id, { title: 'After' })).data;
    expect(await later.next()).toMatchObject({ kind: 'collectionCreated', subjectId: collection.id });
    expect(await earlier.next()).toMatchObject({ kind: 'collectionCreated', subjectId: collection.id });
  });

  it('announces nothing for a write that fails: no row, no event', async () => {
    const { org, owner } = await createOrg(server.db);
    const events = await subscribe(server.baseUrl, owner.token, org.id);
    const api = sdk(server.baseUrl, owner.token);
    // The last admin cannot demote themselves: the write, its event included, rolls back.
    expect((await sdkError(api.orgs.updateMemberInOrganizationById(org.id, owner.id, { role: 'read' } as never))).status).toBe(409);
    expect(await server.db.outboxEvent.count({ where: { organizationId: org.id } })).toBe(0);
    // Nor one recorded by hand in a transaction that then fails.
    const recorded: string[] = [];
    await expect(
      server.db.$transaction(async (tx) => {
        recorded.push(...(await recordEvents(tx, { kind: 'organizationUpdated', organizationId: org.id, subjectId: org.id, actorId: owner.id })));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(recorded).toHaveLength(1);
    expect(await server.db.outboxEvent.count({ where: { id: recorded[0] } })).toBe(0);
    // The next event the subscriber gets is the next committed write's.
    const collection = (await api.orgs.createCollection(org.id, { title: 'After' })).data;
    expect(await events.next()).toMatchObject({ kind: 'collectionCreated', subjectId: collection.id, spaceId: null });
  });

  it('announces a write made by the CLI (no actor) to the subscribers of a running server', async () => {
    const { org, owner } = await createOrg(server.db);
    const events = await subscribe(server.baseUrl, owner.token, org.id);
    const email = `cli-${Date.now()}@example.test`;
    const cli = startQuire(['admin', 'create-user', '--email', email, '--org', org.id, '--role', 'read'], { DATABASE_URL: database.url }, /"user":\{"object":"user","id":"([^"]+)"/);
    const [, userId] = await cli.matched;
    await cli.exited;
    expect(await events.next()).toMatchObject({ kind: 'memberUpdated', subjectId: userId, actorId: null });
  }, 60_000);

  it("announces the worker's writes: a copy made by a job, although the request stopped waiting for it", async () => {
    const worker = startQuire(['worker'], { DATABASE_URL: database.url }, WORKER_READY);
    await worker.matched;
    cleanup.push(async () => {
      worker.child.kill('SIGTERM');
      await worker.exited;
    });
    const { org, owner } = await createOrg(server.db);
    const original = (await sdk(server.baseUrl, owner.token).orgs.createSpace(org.id, { title: 'Original' })).data;
    const events = await subscribe(server.baseUrl, owner.token, org.id);
    // The server waits 0 s for the job (QUIRE_IMPORT_WAIT_SECONDS): the request answers before the copy exists.
    const answer = await gql(server.baseUrl, owner.token, `mutation($id: ID!) { duplicateSpace(id: $id) { id } }`, { id: original.id });
    expect(answer.errors?.[0].extensions?.code).toBe('TIMEOUT');
    // The original's own spaceCreated may still be on its way to a subscriber that began after it.
    let created = await events.next(20_000);
    if (created.subjectId === original.id) created = await events.next(20_000);
    expect(created).toMatchObject({ kind: 'spaceCreated', actorId: owner.id, data: { duplicateOf: original.id } });
    expect(created.spaceId).toBe(created.subjectId);
    expect(await server.db.space.findUnique({ where: { id: created.subjectId } })).toMatchObject({ organizationId: org.id });
  }, 60_000);

  it.runIf(redisReachable || process.env.CI)('crosses to a subscriber of another server through Redis, once, with the same ID', async () => {
    const a = await startApp(database.url, { REDIS_URL });
    const b = await startApp(database.url, { REDIS_URL });
    const { org, owner } = await createOrg(server.db);
    const events = await subscribe(b.baseUrl, owner.token, org.id);
    const space = (await sdk(a.baseUrl, owner.token).orgs.createSpace(org.id, { title: 'From A' })).data;
    const event = await events.next();
    expect(event).toMatchObject({ kind: 'spaceCreated', subjectId: space.id, actorId: owner.id });
    expect((await server.db.outboxEvent.findUniqueOrThrow({ where: { id: event.id } })).subjectId).toBe(space.id);
    await events.quiet(1000); // once: neither A nor the Redis relay delivers it twice
  }, 30_000);
});

describe('the dispatcher', () => {
  let database: { url: string; drop(): Promise<void> };
  let db: Db;
  const running: OutboxDispatcher[] = [];
  const start = (consumers: OutboxConsumer[], opts: { graceMs?: number; pollMs?: number } = {}) => {
    const dispatcher = startOutboxDispatcher({ db, consumers, pollMs: opts.pollMs ?? 100, graceMs: opts.graceMs ?? 300, retentionMs: 7 * DAY })!;
    running.push(dispatcher);
    return dispatcher;
  };
  /** A consumer that keeps what it is given, batch by batch. */
  const recorder = () => {
    const batches: OutboxEventRow[][] = [];
    return { batches, ids: () => batches.flat().map((e) => e.id), consumer: { name: 'recorder', consume: (events: readonly OutboxEventRow[]) => void batches.push([...events]) } };
  };
  const record = (client: Db, n = 1, organizationId = 'org_dispatch') =>
    client.$transaction((tx) => recordEvents(tx, Array.from({ length: n }, (_, i) => ({ kind: 'spaceUpdated' as const, organizationId, subjectId: `spc_${i}`, spaceId: `spc_${i}`, actorId: null }))));
  const dispatched = async (ids: string[]) => (await db.outboxEvent.findMany({ where: { id: { in: ids } } })).every((row) => row.dispatchedAt);

  beforeAll(async () => {
    database = await ownDatabase(testDatabaseUrl(), 'quire_outbox_dispatch');
    cleanup.push(() => database.drop());
    db = createPrismaClient(database.url, { poolMax: 3 });
    cleanup.push(() => db.$disconnect());
  }, 60_000);
  afterAll(async () => {
    for (const dispatcher of running) await dispatcher.stop();
  });

  it('gives every committed event to every consumer once per dispatch, oldest first; a failed or lost dispatch comes again with the same IDs', async () => {
    const first = recorder();
    let failures = 0;
    const failing: OutboxConsumer = {
      name: 'fails once',
      consume() {
        if (!failures++) throw new Error('a consumer failed');
      },
    };
    const dispatcher = start([first.consumer, failing]);
    const ids = await record(db, 3);
    // The failed consumer aborts the claim: the rows stay undispatched, and come again.
    await expect.poll(() => dispatched(ids), { timeout: 5000 }).toBe(true);
    expect(failures).toBe(2);
    expect(first.ids()).toEqual([...ids, ...ids]); // each time in recording order, with the same IDs
    const delivered = first.ids().length;
    await sleep(400); // polls meanwhile: a dispatched row is not given again
    expect(first.ids()).toHaveLength(delivered);
    // A dispatch whose commit was lost (the process died): given again, same IDs.
    await db.outboxEvent.updateMany({ where: { id: ids[0] }, data: { dispatchedAt: null } });
    await expect.poll(() => first.ids().length, { timeout: 5000 }).toBe(delivered + 1);
    expect(first.ids().at(-1)).toBe(ids[0]);
    await dispatcher.stop();
  });

  it('takes rows whose dispatcher died before dispatching them, after the grace period', async () => {
    const mine = recorder();
    const live = start([mine.consumer], { graceMs: 1000 });
    // A client whose writes name a dispatcher that no longer runs (its process was killed).
    const orphanDb = createPrismaClient(database.url, { poolMax: 1 });
    cleanup.push(() => orphanDb.$disconnect());
    const withdraw = outboxOrigin.register('dispatcher-that-died', orphanDb);
    const started = Date.now();
    const ids = await record(orphanDb, 2);
    withdraw();
    await expect.poll(() => mine.ids(), { timeout: 8000 }).toEqual(ids);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900); // left to the one named, for the grace period
    await live.stop();
    // Rows left while no dispatcher ran at all: the next one to start takes them.
    const ids2 = await record(db, 2);
    const next = recorder();
    start([next.consumer]);
    await expect.poll(() => next.ids(), { timeout: 8000 }).toEqual(ids2);
  });

  it('deletes dispatched rows past the retention period, and only those', async () => {
    const sweeper = start([], { pollMs: 60_000, graceMs: 60_000 }); // claims nothing during the test
    const ago = (days: number) => new Date(Date.now() - days * DAY);
    const rows = [
      { id: 'evt_old', dispatchedAt: ago(8) },
      { id: 'evt_recent', dispatchedAt: ago(6) },
      { id: 'evt_waiting', dispatchedAt: null }, // never dispatched: kept, however old
    ];
    await db.outboxEvent.createMany({
      data: rows.map((row) => ({ ...row, kind: 'spaceUpdated', organizationId: 'org_retention', subjectId: 'spc_x', createdAt: ago(30) })),
    });
    await sweeper.sweep(); // (its sweep at start may have run meanwhile, too)
    const left = await db.outboxEvent.findMany({ where: { organizationId: 'org_retention' }, orderBy: { id: 'asc' } });
    expect(left.map((row) => row.id)).toEqual(['evt_recent', 'evt_waiting']);
  });
});

describe('who may learn of an event', () => {
  it('has a rule for every kind', () => {
    expect(ORGANIZATION_EVENT_KINDS.filter((kind) => !familyOf(kind))).toEqual([]);
    expect(familyOf('memberInviteCreated')).toBe('memberInvite');
    expect(familyOf('memberRemoved')).toBe('member');
  });
});
