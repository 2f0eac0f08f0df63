/** Internal failures are logged and answered generically: no internal text reaches the client. */
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createPrismaClient } from '../src/db/client.js';
import { createLogger } from '../src/observability/logger.js';
import { withQueryRaw } from './helpers/db-doubles.js';
import { createOrg } from './helpers/factories.js';
import { testDatabaseUrl } from './helpers/database-url.js';

describe('internal errors', () => {
  it('are masked in GraphQL and REST, and logged', async () => {
    const db = createPrismaClient(testDatabaseUrl());
    const { org, owner } = await createOrg(db);
    // A database whose raw reads (organizations, spaces, lists) fail with an internal message.
    const failing = withQueryRaw(db, () => async () => {
      throw new Error('connection to 10.0.0.7 refused: secret detail');
    });
    const logged: string[] = [];
    const logger = createLogger({ destination: { write: (line: string) => void logged.push(line) } });
    const app = buildApp({ db: failing, config: loadConfig({ PORT: '0' }), logger });
    const { url } = await app.start(0, '127.0.0.1');
    const headers = { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' };

    const graphql = await fetch(`${url}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: `{ organization(id: "${org.id}") { title } }` }) });
    const body = await graphql.text();
    expect(body).not.toContain('secret');
    expect(JSON.parse(body).errors[0].extensions.code).toBe('INTERNAL');

    const rest = await fetch(`${url}/v1/orgs/${org.id}`, { headers });
    expect(rest.status).toBe(500);
    expect(await rest.json()).toEqual({ error: { code: 500, message: 'Internal server error' } });
    const errors = logged.map((line) => JSON.parse(line)).filter((entry) => entry.level === 'error');
    expect(errors.length).toBeGreaterThan(0);
    expect(JSON.stringify(errors)).toContain('secret detail');
    // Every line is JSON; no line carries the token.
    expect(logged.join('')).not.toContain(owner.token);
    await app.stop();
    await db.$disconnect();
  });
});
