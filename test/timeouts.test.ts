/**
 * Time limits: a GraphQL operation (and so a REST route) running past QUIRE_GRAPHQL_TIMEOUT_SECONDS
 * answers TIMEOUT (504) instead of holding the client; a statement running past the database's
 * statement timeout is cancelled by PostgreSQL and answered the same way, not as a 500.
 */
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createPrismaClient, type Db } from '../src/db/client.js';
import { withQueryRaw } from './helpers/db-doubles.js';
import { createOrg } from './helpers/factories.js';
import { testDatabaseUrl } from './helpers/database-url.js';

async function serve(db: Db, env: Record<string, string>) {
  const app = buildApp({ db, config: { ...loadConfig({ PORT: '0', QUIRE_RATE_LIMIT: '0', ...env }), databaseUrl: testDatabaseUrl() } });
  return { app, url: (await app.start(0, '127.0.0.1')).url };
}

describe('time limits', () => {
  it('abandons an operation running past the execution time limit: 504, TIMEOUT', async () => {
    const db = createPrismaClient(testDatabaseUrl());
    const { org, owner } = await createOrg(db);
    // Raw reads (organizations, spaces, lists) take a second here.
    const slow = withQueryRaw(db, (original) => async (...args) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return original(...args);
    });
    const { app, url } = await serve(slow, { QUIRE_GRAPHQL_TIMEOUT_SECONDS: '0.2' });
    try {
      const headers = { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' };
      const started = Date.now();
      const rest = await fetch(`${url}/v1/orgs/${org.id}`, { headers });
      expect(rest.status).toBe(504);
      expect((await rest.json()).error.message).toContain('took longer than 0.2 s');
      expect(Date.now() - started).toBeLessThan(900);
      const graphql = await fetch(`${url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: `{ organization(id: "${org.id}") { title } }` }) });
      expect((await graphql.json()).errors[0].extensions.code).toBe('TIMEOUT');
    } finally {
      await app.stop();
      await db.$disconnect();
    }
  });

  it('answers a statement PostgreSQL cancelled after its statement timeout with TIMEOUT, not 500', async () => {
    const db = createPrismaClient(testDatabaseUrl(), { statementTimeoutMs: 100 });
    const { org, owner } = await createOrg(db);
    const sleepy = withQueryRaw(db, () => () => db.$queryRawUnsafe('SELECT pg_sleep(1)'));
    const { app, url } = await serve(sleepy, {});
    try {
      const rest = await fetch(`${url}/v1/orgs/${org.id}`, { headers: { authorization: `Bearer ${owner.token}` } });
      expect(rest.status).toBe(504);
      expect((await rest.json()).error.message).toBe('A database statement took too long and was cancelled');
    } finally {
      await app.stop();
      await db.$disconnect();
    }
  });
});
