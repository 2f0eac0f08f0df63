/**
 * Load benchmark: seeds an organization (collections × spaces × grants), starts quire in this
 * process on 127.0.0.1, and drives REST and GraphQL reads with autocannon. Prints figures; no
 * thresholds (this machine is shared and noisy). Usage:
 *   DATABASE_URL=postgresql://… npx tsx scripts/bench.ts [--seconds 10] [--connections 20] [--size 20]
 * Without DATABASE_URL it uses the embedded PostgreSQL under ./.quire/bench.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createPrismaClient } from '../src/db/client.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { applyMigrations } from '../src/db/schema-engine.js';
import { createOrganizationWithOwner } from '../src/domain/people/identity/bootstrap.js';
import { newId } from '../src/domain/kernel/ids.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '20' }, size: { type: 'string', default: '20' } } });
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const n = Number(values.size);

const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres({ dataDir: path.resolve('.quire/bench') });
const url = process.env.DATABASE_URL ?? embedded!.url;
await applyMigrations(url);
const db = createPrismaClient(url, { poolMax: 10 });

const { organization: org, token } = await createOrganizationWithOwner(db, { title: 'Bench', ownerEmail: `bench-${Date.now()}@example.test` });
const users = Array.from({ length: n }, (_, i) => ({ id: newId('User'), email: `${newId('User')}@bench.test`, displayName: `U${i}` }));
await db.user.createMany({ data: users });
await db.member.createMany({ data: users.map((u) => ({ organizationId: org.id, userId: u.id, role: 'read' as const })) });
const collections = Array.from({ length: n }, (_, i) => ({ id: newId('Collection'), organizationId: org.id, title: `C${i}`, position: i }));
await db.collection.createMany({ data: collections });
const spaces = collections.flatMap((c) => Array.from({ length: n }, (_, i) => ({ id: newId('Space'), organizationId: org.id, parentId: c.id, title: `S${i}`, position: i, revisionId: newId('Revision') })));
await db.space.createMany({ data: spaces });
await db.revision.createMany({ data: spaces.map((s) => ({ id: s.revisionId, spaceId: s.id, lineId: s.id, seq: 1 })) });
await db.contentPermission.createMany({
  data: spaces.flatMap((s) => users.slice(0, 5).map((u) => ({ id: newId('ContentPermission'), organizationId: org.id, spaceId: s.id, userId: u.id, role: 'edit' as const }))),
});

const app = buildApp({ db, config: { ...loadConfig({ PORT: '0', QUIRE_RATE_LIMIT: process.env.QUIRE_RATE_LIMIT ?? '1000000000' }), databaseUrl: url } });
const { port } = await app.start(0, '127.0.0.1');
const base = `http://127.0.0.1:${port}`;
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

const nested = JSON.stringify({
  query: `query($id: ID!) { organization(id: $id) { collections(first: 100) { edges { node { id spaces(first: 100) { edges { node { id title permissions { admin } users(first: 10) { totalCount } } } } } } } } }`,
  variables: { id: org.id },
});

const scenarios = [
  { name: `REST GET /v1/spaces/{id}`, request: { method: 'GET' as const, path: `/v1/spaces/${spaces[0].id}` } },
  { name: `REST GET /v1/orgs/{id}/spaces?limit=100 (of ${spaces.length})`, request: { method: 'GET' as const, path: `/v1/orgs/${org.id}/spaces?limit=100` } },
  { name: `GraphQL nested ${n} collections × ${n} spaces × users`, request: { method: 'POST' as const, path: '/graphql', body: nested } },
];

console.log(`quire bench: ${seconds}s per scenario, ${connections} connections, ${collections.length} collections, ${spaces.length} spaces`);
for (const s of scenarios) {
  const result = await autocannon({ url: base, connections, duration: seconds, headers, requests: [s.request] });
  const rss = Math.round(process.memoryUsage().rss / 1024 / 1024);
  console.log(
    `${s.name}: ${Math.round(result.requests.average)} req/s, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
      `non-2xx ${result.non2xx}, errors ${result.errors}, RSS ${rss} MiB`,
  );
}

await app.stop();
await db.$disconnect();
await embedded?.stop();
