/**
 * Memory benchmark: the server's RSS and heap at idle, a few seconds after it starts, then after a
 * short load of each of the throughput benchmark's reads (bench-throughput.ts: A REST and GraphQL
 * one space, B organization → 20 collections → 20 spaces, C REST list of 100 spaces), one after
 * the other. The server is the compiled application in a
 * process of its own (scripts/bench-server.mjs, as bench-throughput runs it: no job runner, which
 * `quire serve` adds). Figures, no thresholds. Usage:
 *   DATABASE_URL=postgresql://… npx tsx scripts/bench-memory.ts [--seconds 5] [--connections 20] [--idle 5] [--node PATH]
 * Without DATABASE_URL it uses the embedded PostgreSQL under ./.quire/bench. What retains the heap:
 * docs/performance.md, Memory (a heap snapshot, summarized by scripts/heap-snapshot-summary.mjs).
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { applyMigrations } from '../src/db/schema-engine.js';
import { NESTED_QUERY, seed, SPACE_QUERY } from './bench-org.js';
import { startBenchServer, type Stats } from './bench-target.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    idle: { type: 'string', default: '5' },
    node: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const MiB = (bytes: number) => String(Math.round(bytes / 1024 / 1024));
const row = (name: string, s: Stats) => console.log(name.padEnd(48) + [MiB(s.rss), MiB(s.peakRss), MiB(s.heapUsed), MiB(s.external)].map((c) => c.padStart(10)).join(''));

if (process.env.QUIRE_BENCH_SOURCE !== 'src' && !process.env.QUIRE_BENCH_DIST) execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });

const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres({ dataDir: path.resolve('.quire/bench') });
const url = process.env.DATABASE_URL ?? embedded!.url;
try {
  await applyMigrations(url);
  const { orgId, spaceId, token } = await seed(url);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const graphql = (query: string, id: string) => ({ method: 'POST' as const, path: '/graphql', body: JSON.stringify({ query, variables: { id } }) });
  const requests = [
    ['A REST GET /v1/spaces/{id}', { method: 'GET' as const, path: `/v1/spaces/${spaceId}` }],
    ['A GraphQL space(id)', graphql(SPACE_QUERY, spaceId)],
    ['B GraphQL org → collections → spaces', graphql(NESTED_QUERY, orgId)],
    ['C REST GET /v1/orgs/{id}/spaces?limit=100', { method: 'GET' as const, path: `/v1/orgs/${orgId}/spaces?limit=100` }],
  ] as const;
  const quire = await startBenchServer('quire', url, values.node);
  console.log(`quire memory (MiB), server on ${values.node ?? `node ${process.version}`}; load: ${seconds}s per request, ${connections} connections`);
  console.log('when'.padEnd(48) + ['RSS', 'peak RSS', 'heap used', 'external'].map((c) => c.padStart(10)).join(''));
  await sleep(Number(values.idle) * 1000);
  row(`idle, ${values.idle}s after start`, await quire.stats());
  for (const [name, request] of requests) {
    const result = await autocannon({ url: quire.base, connections, duration: seconds, headers, requests: [request] });
    if (result.non2xx || result.errors) process.exitCode = 1;
    row(`after ${name}${result.non2xx || result.errors ? ' (FAILED requests)' : ''}`, await quire.stats());
  }
  await sleep(Number(values.idle) * 1000);
  row(`idle again, ${values.idle}s later`, await quire.stats());
  await quire.stop();
} finally {
  await embedded?.stop();
}
