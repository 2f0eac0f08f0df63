/**
 * The job runner through a database outage, in a real `quire serve`: two imports are running when
 * the database stops taking connections (`ALLOW_CONNECTIONS false`, every session terminated), and
 * their fetches answer during the outage. Neither run can record its end, and graphile-worker
 * retires a worker that cannot (it does not replace it): the runner would be left without workers
 * while requests succeed again. The supervisor (jobs/worker.ts) starts the runner again once the
 * database is back; the two imports are taken back (their heartbeat stopped) and run to the end,
 * and a new job runs, without restarting the process.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPrismaClient, type Db } from '../src/db/client.js';
import { createOrganizationWithOwner } from '../src/domain/people/identity/bootstrap.js';
import { gqlOk, http } from './helpers/clients.js';
import { killAll, ownDatabase, SERVE_READY, startQuire } from './helpers/processes.js';
import { testDatabaseUrl } from './helpers/database-url.js';

let database: Awaited<ReturnType<typeof ownDatabase>>;
let db: Db;
let base = '';
let output = '';
let serve: ReturnType<typeof startQuire>;

// Markdown served once the gate opens: until then, requests wait.
let open: () => void = () => {};
const gate = new Promise<void>((resolve) => (open = resolve));
const source = createServer((_req, res) => void gate.then(() => res.writeHead(200, { 'content-type': 'text/markdown' }).end('# Imported\n\nAfter the outage.\n')));
let sourceUrl = '';

/** Runs `sql` on the server's maintenance database, beside the test's own. */
async function admin(sql: string) {
  const url = new URL(database.url);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}
const name = () => new URL(database.url).pathname.slice(1);

beforeAll(async () => {
  database = await ownDatabase(testDatabaseUrl(), 'quire_runner_outage');
  db = createPrismaClient(database.url, { poolMax: 2 });
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/page.md`;
  serve = startQuire(['serve'], { DATABASE_URL: database.url, QUIRE_FETCH_ALLOW_PRIVATE_NETWORKS: 'true', QUIRE_JOB_STALE_SECONDS: '2' }, SERVE_READY);
  serve.child.stdout!.on('data', (chunk) => (output += chunk));
  serve.child.stderr!.on('data', (chunk) => (output += chunk));
  base = (await serve.matched)[1];
}, 120_000);

afterAll(async () => {
  open();
  killAll();
  source.closeAllConnections();
  await new Promise((resolve) => source.close(resolve));
  await db?.$disconnect();
  await admin(`ALTER DATABASE "${name()}" WITH ALLOW_CONNECTIONS true`).catch(() => {});
  await database?.drop();
});

const IMPORT = `mutation($cr: ID!, $url: String!) { importContent(changeRequest: $cr, url: $url, source: markdown) { id } }`;

async function startImport(token: string, organizationId: string) {
  const space = (await http(base, token, 'POST', `/orgs/${organizationId}/spaces`, { title: 'Outage' })).body;
  const cr = (await http(base, token, 'POST', `/spaces/${space.id}/change-requests`, { subject: 'Import' })).body;
  const { importContent } = await gqlOk(base, token, IMPORT, { cr: cr.id, url: sourceUrl });
  return importContent.id as string;
}

const job = (id: string) => db.job.findUniqueOrThrow({ where: { id } });

describe('the job runner through a database outage', () => {
  it('is started again once the database is back: the runs cut off finish, new jobs run, the process never restarts', async () => {
    const { organization, token } = await createOrganizationWithOwner(db, { title: 'Outage', ownerEmail: `outage-${Date.now()}@example.test` });
    const cut = [await startImport(token, organization.id), await startImport(token, organization.id)];
    for (const id of cut) await expect.poll(async () => (await job(id)).state, { timeout: 20_000, interval: 100 }).toBe('running');

    await admin(`ALTER DATABASE "${name()}" WITH ALLOW_CONNECTIONS false`);
    await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name()}'`);
    open(); // both fetches answer now: each run meets the outage when it writes, and cannot record its end
    await expect.poll(() => output.match(/job runner stopped; starting it again/g)?.length ?? 0, { timeout: 20_000, interval: 100 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await admin(`ALTER DATABASE "${name()}" WITH ALLOW_CONNECTIONS true`);

    await expect.poll(() => /job runner started again/.test(output), { timeout: 60_000, interval: 250 }).toBe(true);
    for (const id of cut) await expect.poll(async () => (await job(id)).state, { timeout: 30_000, interval: 250 }).toBe('succeeded');
    for (const id of cut) expect((await job(id)).attempts).toBe(2);
    const after = await startImport(token, organization.id);
    await expect.poll(async () => (await job(after)).state, { timeout: 20_000, interval: 250 }).toBe('succeeded');
    expect(serve.child.exitCode).toBeNull();
    expect(output).not.toMatch(/unhandled|uncaught/i);
  }, 150_000);
});
