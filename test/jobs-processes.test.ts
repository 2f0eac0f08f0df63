/**
 * Jobs across real processes, as an operator deploys them: two `quire serve` instances without a
 * job runner and one `quire worker`, on one PostgreSQL database (its own, so no other test's
 * worker takes these jobs) and Redis. Job progress published by the worker reaches subscribers of
 * both servers (their re-reading of the job is set to a minute, so what arrives sooner came
 * through Redis); and a worker killed with SIGKILL in the middle of an import leaves no
 * half-written revision: a new worker takes the job back and finishes it, once.
 */
import { randomUUID } from 'node:crypto';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createPrismaClient, type Db } from '../src/db/client.js';
import { createOrganizationWithOwner } from '../src/domain/people/identity/bootstrap.js';
import { gqlOk, http } from './helpers/clients.js';
import { killAll, ownDatabase, SERVE_READY, startQuire, WORKER_READY } from './helpers/processes.js';
import { REDIS_URL, redisReachable } from './helpers/redis.js';
import { serveSite, type Site } from './helpers/site.js';
import { testDatabaseUrl } from './helpers/database-url.js';

let database: Awaited<ReturnType<typeof ownDatabase>> | undefined;
let db: Db;
let site: Site;

const start = (args: string[], env: Record<string, string>, ready: RegExp) => startQuire(args, { DATABASE_URL: database!.url, REDIS_URL, ...env }, ready);
const serve = async () => (await start(['serve'], { QUIRE_RUN_WORKER: 'false', QUIRE_JOB_POLL_SECONDS: '60' }, SERVE_READY).matched)[1];
const worker = () => start(['worker'], { QUIRE_FETCH_ALLOW_PRIVATE_NETWORKS: 'true', QUIRE_JOB_STALE_SECONDS: '2' }, WORKER_READY);

beforeAll(async () => {
  if (!redisReachable && !process.env.CI) return;
  database = await ownDatabase(testDatabaseUrl(), 'quire_procs');
  db = createPrismaClient(database.url);
  // Eight pages, each answered slowly: an import takes a few seconds.
  const page = (title: string, body = '') => ({ type: 'text/html', delayMs: 400, body: `<html><body><main><h1>${title}</h1><p>${body}</p></main></body></html>` });
  const numbers = ['1', '2', '3', '4', '5', '6', '7'];
  site = await serveSite({ '/': page('Start', numbers.map((n) => `<a href="/${n}">${n}</a>`).join(' ')), ...Object.fromEntries(numbers.map((n) => [`/${n}`, page(`Page ${n}`)])) });
}, 120_000);

afterAll(async () => {
  killAll();
  await site?.close();
  await db?.$disconnect();
  await database?.drop();
});

async function changeRequest(baseUrl: string) {
  const { organization, token } = await createOrganizationWithOwner(db, { title: 'Processes', ownerEmail: `procs-${randomUUID().slice(0, 8)}@example.test` });
  const space = (await http(baseUrl, token, 'POST', `/orgs/${organization.id}/spaces`, { title: 'Imports' })).body;
  const cr = (await http(baseUrl, token, 'POST', `/spaces/${space.id}/change-requests`, { subject: 'Import' })).body;
  return { token, space, cr };
}

const IMPORT = `mutation($cr: ID!, $url: String!) { importContent(changeRequest: $cr, url: $url, source: website) { id state } }`;
const WATCH = `subscription($id: ID!) { job(id: $id) { state progress { done total } } }`;
type Seen = { state: string; progress: { done: number } };

describe.runIf(redisReachable || process.env.CI)('jobs across processes', () => {
  it('streams the progress a separate worker publishes to subscribers of two other server processes (graphql-ws and SSE)', async () => {
    const [a, b] = await Promise.all([serve(), serve()]);
    const runner = worker();
    await runner.matched;
    const { token, cr } = await changeRequest(a);
    const { importContent: job } = await gqlOk(b, token, IMPORT, { cr: cr.id, url: `${site.url}/` });

    const ws = createClient({ url: `${a.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
    const overWs: Seen[] = [];
    const wsDone = new Promise<void>((resolve, reject) => ws.subscribe({ query: WATCH, variables: { id: job.id } }, { next: (r) => void overWs.push((r.data as { job: Seen }).job), error: reject, complete: resolve }));
    const sse = fetch(`${b}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: WATCH, variables: { id: job.id } }),
    }).then((r) => r.text());

    const started = Date.now();
    await wsDone;
    const overSse = [...(await sse).matchAll(/"state":"(\w+)","progress":\{"done":(\d+)/g)].map((m) => ({ state: m[1], progress: { done: Number(m[2]) } }));
    await ws.dispose();
    // Well within the servers' one-minute re-read: every change after the first came as an event.
    expect(Date.now() - started).toBeLessThan(45_000);
    for (const seen of [overWs, overSse]) {
      expect(seen.at(-1)?.state).toBe('succeeded');
      expect(new Set(seen.filter((j) => j.state === 'running').map((j) => j.progress.done)).size).toBeGreaterThanOrEqual(3);
    }
    runner.child.kill('SIGTERM');
  }, 120_000);

  it('survives SIGKILL of the worker mid-import: nothing half-written, the job is taken back and finishes once', async () => {
    const base = await serve();
    let runner = worker();
    await runner.matched;
    const { token, space, cr } = await changeRequest(base);
    const before = (await http(base, token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}`)).body.revision;
    const { importContent: job } = await gqlOk(base, token, IMPORT, { cr: cr.id, url: `${site.url}/` });
    await expect.poll(async () => (await db.job.findUniqueOrThrow({ where: { id: job.id } })).progressDone, { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(2);
    runner.child.kill('SIGKILL');
    await new Promise((resolve) => runner.child.once('exit', resolve));

    const content = `/spaces/${space.id}/change-requests/${cr.id}/content/pages`;
    expect(await db.job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ state: 'running', attempts: 1 });
    expect((await http(base, token, 'GET', `/spaces/${space.id}/change-requests/${cr.id}`)).body.revision).toBe(before);
    expect((await http(base, token, 'GET', content)).body.pages).toEqual([]);

    runner = worker();
    await runner.matched;
    await expect.poll(async () => (await db.job.findUniqueOrThrow({ where: { id: job.id } })).state, { timeout: 60_000, interval: 250 }).toBe('succeeded');
    const done = await db.job.findUniqueOrThrow({ where: { id: job.id } });
    expect(done.attempts).toBe(2);
    const titles = (await http(base, token, 'GET', content)).body.pages.map((p: { title: string }) => p.title);
    expect(titles).toEqual(['Start', ...['1', '2', '3', '4', '5', '6', '7'].map((n) => `Page ${n}`)]);
    expect((done.result as { revision: string }).revision).not.toBe(before);
    runner.child.kill('SIGTERM');
  }, 150_000);
});
