/**
 * Subscription.organizationEvents over graphql-ws and over SSE (streamed, not buffered): events
 * follow committed writes made over REST or GraphQL (through the outbox: test/outbox.test.ts), reach only those who may see their subject,
 * and — through Redis — cross from one instance to another.
 */
import { createClient, type Client } from 'graphql-ws';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createPrismaClient } from '../src/db/client.js';
import { sdk } from './helpers/clients.js';
import { createActor, createOrg } from './helpers/factories.js';
import { REDIS_URL, redisReachable } from './helpers/redis.js';
import { postSubscription, sseResults } from './helpers/sse.js';
import { useServer } from './helpers/server.js';

const server = useServer();

const EVENTS = `subscription($id: ID!) { organizationEvents(organizationId: $id) { id kind subjectId spaceId actorId organizationId at space { id title } collection { id } } }`;

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

/** Collects the events of one subscription over graphql-ws; `next()` waits for the next one. */
function subscribeWs(baseUrl: string, token: string, organizationId: string) {
  const client: Client = createClient({ url: `${baseUrl.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
  cleanup.push(async () => client.dispose());
  return collect((push, fail) => {
    const ready = new Promise<void>((resolve) => client.on('connected', () => resolve()));
    client.subscribe({ query: EVENTS, variables: { id: organizationId } }, { next: (r) => push(r as Result), error: fail, complete: () => {} });
    return ready;
  });
}

/** The same over SSE: a POST asking for text/event-stream, read as it streams. */
function subscribeSse(baseUrl: string, token: string, organizationId: string) {
  const abort = new AbortController();
  cleanup.push(async () => abort.abort());
  return collect(async (push, fail) => {
    const response = await postSubscription(baseUrl, token, EVENTS, { id: organizationId }, abort.signal);
    void (async () => {
      try {
        for await (const result of sseResults(response)) push(result);
      } catch (error) {
        if (!abort.signal.aborted) fail(error);
      }
    })();
  });
}

type Result = { data?: any; errors?: readonly any[] };

function collect(start: (push: (r: Result) => void, fail: (e: unknown) => void) => Promise<void>) {
  const queue: Result[] = [];
  const waiting: ((r: Result) => void)[] = [];
  let failure: unknown;
  const push = (r: Result) => (waiting.length ? waiting.shift()!(r) : queue.push(r));
  const started = start(push, (e) => (failure = e));
  return {
    started,
    next(timeoutMs = 5000): Promise<Result> {
      if (failure) return Promise.reject(failure);
      if (queue.length) return Promise.resolve(queue.shift()!);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no event within 5 s')), timeoutMs);
        waiting.push((r) => {
          clearTimeout(timer);
          resolve(r);
        });
      });
    },
  };
}

/** Subscriptions start listening a moment after the request is accepted: writes wait for that. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('organizationEvents', () => {
  for (const [transport, subscribe] of [
    ['graphql-ws', subscribeWs],
    ['SSE', subscribeSse],
  ] as const) {
    it(`streams committed writes over ${transport}, with the subject as it is now`, async () => {
      const { org, owner } = await createOrg(server.db);
      const events = subscribe(server.url, owner.token, org.id);
      await events.started;
      await settle();
      const api = sdk(server.url, owner.token);
      const space = (await api.orgs.createSpace(org.id, { title: 'Fresh' })).data;
      const created = await events.next();
      expect(created.data.organizationEvents).toMatchObject({ kind: 'spaceCreated', subjectId: space.id, spaceId: space.id, actorId: owner.id, organizationId: org.id, space: { id: space.id, title: 'Fresh' }, collection: null });
      expect(created.data.organizationEvents.id).toMatch(/^evt_/);
      await api.spaces.updateSpaceById(space.id, { title: 'Renamed' });
      expect((await events.next()).data.organizationEvents).toMatchObject({ kind: 'spaceUpdated', space: { title: 'Renamed' } });
      const collection = (await api.orgs.createCollection(org.id, { title: 'Shelf' })).data;
      expect((await events.next()).data.organizationEvents).toMatchObject({ kind: 'collectionCreated', subjectId: collection.id, collection: { id: collection.id }, space: null });
    });
  }

  it('leaves out what the subscriber cannot see, and refuses another organization', async () => {
    const { org, owner } = await createOrg(server.db);
    const guest = await createActor(server.db, { org: org.id, role: 'guest' });
    const other = await createActor(server.db, { org: org.id, role: 'read' });
    const stranger = await createOrg(server.db);
    const api = sdk(server.url, owner.token);
    const shared = (await api.orgs.createSpace(org.id, { title: 'Shared' })).data;
    await api.spaces.inviteToSpace(shared.id, { role: 'read', users: [guest.id] } as never);
    const events = subscribeWs(server.url, guest.token, org.id);
    await events.started;
    await settle();
    await api.orgs.createSpace(org.id, { title: 'Hidden' }); // not granted to the guest
    await api.orgs.updateMemberInOrganizationById(org.id, other.id, { role: 'edit' } as never); // guests do not read members
    await api.spaces.updateSpaceById(shared.id, { title: 'Shared, renamed' });
    let seen = await events.next();
    // The guest's own grant on the shared space may be delivered after the subscription started: it may see it.
    while (seen.data.organizationEvents.kind === 'permissionsUpdated' && seen.data.organizationEvents.subjectId === shared.id) seen = await events.next();
    expect(seen.data.organizationEvents).toMatchObject({ kind: 'spaceUpdated', subjectId: shared.id });

    const refused = subscribeWs(server.url, stranger.owner.token, org.id);
    await refused.started;
    expect((await refused.next()).errors?.[0].extensions.code).toBe('NOT_FOUND');
  });

  it.runIf(redisReachable || process.env.CI)('crosses instances through Redis: a write on one reaches a subscriber on another', async () => {
    const config = { ...loadConfig({ PORT: '0', HOST: '127.0.0.1', REDIS_URL }), databaseUrl: server.databaseUrl };
    // Each instance its own pool, as separate processes have: its writes are dispatched by its own dispatcher.
    const dbs = [createPrismaClient(server.databaseUrl, { poolMax: 3 }), createPrismaClient(server.databaseUrl, { poolMax: 3 })];
    const apps: App[] = dbs.map((db) => buildApp({ db, config }));
    const [a, b] = await Promise.all(apps.map((app) => app.start(0, '127.0.0.1')));
    cleanup.push(async () => {
      await Promise.all(apps.map((app) => app.stop()));
      await Promise.all(dbs.map((db) => db.$disconnect()));
    });
    const { org, owner } = await createOrg(server.db);
    const events = subscribeSse(`http://127.0.0.1:${a.port}`, owner.token, org.id);
    await events.started;
    await settle();
    const space = (await sdk(`http://127.0.0.1:${b.port}`, owner.token).orgs.createSpace(org.id, { title: 'Elsewhere' })).data;
    expect((await events.next()).data.organizationEvents).toMatchObject({ kind: 'spaceCreated', subjectId: space.id, space: { title: 'Elsewhere' } });
  });
});
