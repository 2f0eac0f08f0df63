/**
 * The operator's view: an X-Request-Id on every answer, one JSON access-log line per request
 * (route template, status, duration, user, GraphQL operation; never a token), and Prometheus
 * metrics at /metrics labelled by route template.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createPrismaClient, type Db } from '../src/db/client.js';
import { createLogger } from '../src/observability/logger.js';
import { createOrg } from './helpers/factories.js';
import { testDatabaseUrl } from './helpers/database-url.js';

let app: App;
let db: Db;
let url: string;
const lines: string[] = [];
const entries = () => lines.map((line) => JSON.parse(line));

beforeAll(async () => {
  db = createPrismaClient(testDatabaseUrl());
  const logger = createLogger({ destination: { write: (line: string) => void lines.push(line) } });
  app = buildApp({ db, config: { ...loadConfig({ PORT: '0' }), databaseUrl: testDatabaseUrl() }, logger });
  ({ url } = await app.start(0, '127.0.0.1'));
});
afterAll(async () => {
  await app.stop();
  await db.$disconnect();
});

/** The access-log entry of the request that answered with `requestId` (written once the answer is sent). */
async function accessEntry(requestId: string) {
  for (let i = 0; i < 50; i++) {
    const entry = entries().find((e) => e.msg === 'request' && e.reqId === requestId);
    if (entry) return entry;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no access-log line for ${requestId}`);
}

describe('operations', () => {
  it('answers with a request ID, the caller\'s when it is a plain token, and logs one line per request', async () => {
    const { org, owner } = await createOrg(db);
    const headers = { authorization: `Bearer ${owner.token}` };
    const space = await (await fetch(`${url}/v1/orgs/${org.id}/spaces`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"title":"Logged"}' })).json();

    const rest = await fetch(`${url}/v1/spaces/${space.id}`, { headers: { ...headers, 'x-request-id': 'trace-123' } });
    expect(rest.headers.get('x-request-id')).toBe('trace-123');
    expect(await accessEntry('trace-123')).toMatchObject({ level: 'info', method: 'GET', route: 'GET /v1/spaces/{spaceId}', status: 200, userId: owner.id, service: 'quire' });
    expect((await accessEntry('trace-123')).durationMs).toBeGreaterThan(0);

    const generated = await fetch(`${url}/v1/nope`, { headers: { ...headers, 'x-request-id': 'not a token\u00e9' } });
    const id = generated.headers.get('x-request-id')!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await accessEntry(id)).toMatchObject({ route: 'unmatched', status: 404 });

    for (const extensions of [undefined, {}]) {
      // The fast path and yoga's own handler both name the operation.
      const graphql = await fetch(`${url}/graphql`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query: 'query Who { viewer { id } }', extensions }) });
      expect(await accessEntry(graphql.headers.get('x-request-id')!)).toMatchObject({ route: 'POST /graphql', status: 200, operation: 'Who', userId: owner.id });
    }
    expect(lines.join('\n')).not.toContain(owner.token);
  });

  it('serves Prometheus metrics labelled by route template', async () => {
    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toMatch(/quire_http_request_duration_seconds_count\{method="GET",route="GET \/v1\/spaces\/\{spaceId\}",status="200"\} \d+/);
    expect(text).toMatch(/quire_graphql_operation_duration_seconds_count\{operation="Who"\} 2/);
    expect(text).toMatch(/quire_db_pool_connections\{state="total"\} \d+/);
    expect(text).toContain('quire_process_cpu_seconds_total');
    expect(text).not.toMatch(/spc_[A-Za-z0-9]+/); // no IDs in labels
  });
});
