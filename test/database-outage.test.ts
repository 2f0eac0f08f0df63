/**
 * When the database goes away, requests answer 503 (REST and GraphQL, with Retry-After), the
 * process stays up, and once the database is back requests succeed again without a restart.
 * The database here is an embedded PostgreSQL of the test's own, stopped and started again.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createPrismaClient } from '../src/db/client.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../src/db/embedded.js';
import { applyMigrations } from '../src/db/schema-engine.js';
import { createOrganizationWithOwner } from '../src/domain/people/identity/bootstrap.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
});

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

describe('a database outage', () => {
  it('answers 503 while the database is down, and recovers by itself when it returns', async () => {
    // Under .quire/, created by the server code: as root, PostgreSQL runs as `postgres`, which
    // cannot enter a private temporary directory.
    const dataDir = path.resolve('.quire', `outage-${randomUUID().slice(0, 8)}`);
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    let database: EmbeddedDatabase = await startEmbeddedPostgres({ dataDir, port });
    cleanup.push(() => database.stop());
    await applyMigrations(database.url);
    const db = createPrismaClient(database.url, { poolMax: 2 });
    cleanup.push(() => db.$disconnect());
    const { organization, token } = await createOrganizationWithOwner(db, { title: 'Outage', ownerEmail: `outage-${Date.now()}@example.test` });
    // Tokens are looked up every time, so that the outage reaches authentication too.
    const app = buildApp({ db, config: { ...loadConfig({ PORT: '0', QUIRE_TOKEN_CACHE_SECONDS: '0' }), databaseUrl: database.url } });
    const { url } = await app.start(0, '127.0.0.1');
    cleanup.push(() => app.stop({ graceMs: 0 }));
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const rest = () => fetch(`${url}/v1/orgs/${organization.id}`, { headers });
    const graphql = () => fetch(`${url}/graphql`, { method: 'POST', headers: { ...headers, accept: 'application/graphql-response+json' }, body: JSON.stringify({ query: '{ viewer { id } }' }) });

    expect((await rest()).status).toBe(200);
    await database.stop();
    const down = await rest();
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('5');
    expect(await down.json()).toEqual({ error: { code: 503, message: 'The database is unavailable; try again shortly' } });
    const graphqlDown = await graphql();
    expect(graphqlDown.status).toBe(503);
    expect((await graphqlDown.json()).errors[0].extensions.code).toBe('UNAVAILABLE');
    expect((await fetch(`${url}/healthz`)).status).toBe(200); // the process itself is alive
    expect((await fetch(`${url}/readyz`)).status).toBe(503);

    database = await startEmbeddedPostgres({ dataDir, port });
    let status = 0;
    for (let attempt = 0; attempt < 10 && status !== 200; attempt++) {
      status = (await rest()).status; // the first may still meet a connection cut by the restart
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(status).toBe(200);
    expect((await graphql()).status).toBe(200);
  }, 120_000);
});
