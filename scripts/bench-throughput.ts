/**
 * Throughput benchmark: quire against a physical-limit baseline (and optionally PostGraphile) on
 * three reads of a seeded organization (20 collections × 20 spaces, 20 extra members, 5 user
 * grants per space):
 *   A. one space by id: REST GET /v1/spaces/{id} and GraphQL space(id) with permissions
 *   B. GraphQL organization → 20 collections → 20 spaces each
 *   C. REST GET /v1/orgs/{id}/spaces?limit=100
 * Each server runs in its own child process (scripts/bench-server.mjs), so its CPU, SQL statement
 * count and RSS are its own; the load generator (autocannon) runs here. "DB CPU" is the CPU time
 * of every PostgreSQL process of this machine (so run it on an otherwise idle database server: the
 * machine's or the embedded one, not a remote one) over the same interval. CPU and SQL are divided by
 * the requests sent: the server's stats are read once it is idle again, so they include the
 * requests still in flight when autocannon stops. Every request is checked once (200 and the
 * expected data) before it is measured: FAIL otherwise. Figures, no thresholds (the machine is
 * shared and noisy). Usage:
 *   DATABASE_URL=postgresql://… npx tsx scripts/bench-throughput.ts [--seconds 10] [--connections 20] [--postgraphile] [--node PATH] [--only B]
 * Without DATABASE_URL it uses the embedded PostgreSQL under ./.quire/bench. --postgraphile then
 * runs scripts/bench-postgraphile.sh (PostGraphile 5, installed outside the repo, on Node 24 unless
 * --node); --node runs every server (quire, baseline, PostGraphile) with another Node binary;
 * the servers run the compiled `dist/` (built first), the sources with QUIRE_BENCH_SOURCE=src, or
 * another build with QUIRE_BENCH_DIST=dir (a copy of dist/ inside the repository, not rebuilt);
 * --only runs the requests whose letter is given ("B", "AC"), for quire only.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { applyMigrations } from '../src/db/schema-engine.js';
import { NESTED_QUERY, seed, SIZE, SPACE_QUERY, type Seed } from './bench-org.js';
import { startBenchServer, type Target } from './bench-target.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    postgraphile: { type: 'boolean', default: false },
    node: { type: 'string' },
    only: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
// The first scenario of a fresh server pays for its code's optimization: 2 s were not enough.
const WARMUP_SECONDS = 4;

type Scenario = {
  name: string;
  target: 'quire' | 'baseline';
  request: { method: 'GET' | 'POST'; path: string; body?: string };
  /** What is wrong with the answer, or undefined when it is the expected one. */
  check(body: any): string | undefined;
};

const graphql = (query: string, id: string) => ({ method: 'POST' as const, path: '/graphql', body: JSON.stringify({ query, variables: { id } }) });

function scenarios({ orgId, spaceId }: Seed): Scenario[] {
  const isTheSpace = (space: any) => (space?.id === spaceId ? undefined : `expected space ${spaceId}, got ${JSON.stringify(space).slice(0, 200)}`);
  return [
    { name: 'A  REST GET /v1/spaces/{id}', target: 'quire', request: { method: 'GET', path: `/v1/spaces/${spaceId}` }, check: isTheSpace },
    { name: 'A  BASELINE node:http + pg, 1 SELECT', target: 'baseline', request: { method: 'GET', path: `/v1/spaces/${spaceId}` }, check: isTheSpace },
    {
      name: 'A  GraphQL space(id)',
      target: 'quire',
      request: graphql(SPACE_QUERY, spaceId),
      check: (body) => (body.errors ? JSON.stringify(body.errors) : (isTheSpace(body.data?.space) ?? (body.data.space.permissions?.admin ? undefined : 'owner is not admin'))),
    },
    {
      name: `B  GraphQL org → ${SIZE} collections → ${SIZE} spaces`,
      target: 'quire',
      request: graphql(NESTED_QUERY, orgId),
      check: (body) => {
        const collections = body.data?.organization?.collections?.edges ?? [];
        const counts = collections.map((c: any) => c.node.spaces.edges.length);
        const ok = !body.errors && collections.length === SIZE && counts.every((n: number) => n === SIZE);
        return ok ? undefined : `expected ${SIZE} collections of ${SIZE} spaces, got [${counts}] ${JSON.stringify(body.errors ?? '')}`;
      },
    },
    {
      name: 'C  REST GET /v1/orgs/{id}/spaces?limit=100',
      target: 'quire',
      request: { method: 'GET', path: `/v1/orgs/${orgId}/spaces?limit=100` },
      check: (body) => (body.items?.length === 100 ? undefined : `expected 100 items, got ${body.items?.length} ${JSON.stringify(body).slice(0, 200)}`),
    },
  ];
}

async function verify(base: string, headers: Record<string, string>, scenario: Scenario): Promise<string | undefined> {
  const response = await fetch(base + scenario.request.path, { method: scenario.request.method, headers, body: scenario.request.body });
  const text = await response.text();
  if (response.status !== 200) return `status ${response.status}: ${text.slice(0, 300)}`;
  return scenario.check(JSON.parse(text));
}

const COLUMNS = ['req/s', 'p50 ms', 'p99 ms', 'CPU ms/req', 'DB CPU ms', 'SQL/req', 'RSS MiB', 'non-2xx'];

/**
 * CPU time of this machine's PostgreSQL processes so far, in ms (from /proc; 10 ms ticks): user and
 * system time of each, and of its ended children (a backend that exits, its pool connection closed,
 * is counted in the postmaster's).
 */
function databaseCpuMs(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes(' (postgres) ')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from the 3rd on
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]); // utime, stime, cutime, cstime: the 14th to 17th
    } catch {
      // the process ended meanwhile
    }
  }
  return ticks * 10;
}
const NAME_WIDTH = 50;
const row = (name: string, cells: (string | number)[]) => name.padEnd(NAME_WIDTH) + cells.map((c) => String(c).padStart(11)).join('');

async function measure(target: Target, headers: Record<string, string>, scenario: Scenario): Promise<string> {
  const load = (duration: number) => autocannon({ url: target.base, connections, duration, headers, requests: [scenario.request] });
  await load(WARMUP_SECONDS);
  const before = await target.stats();
  const databaseBefore = databaseCpuMs();
  const result = await load(seconds);
  const after = await target.stats();
  const databaseMs = databaseCpuMs() - databaseBefore;
  const sent = result.requests.sent;
  return row(scenario.name, [
    Math.round(result.requests.average),
    result.latency.p50,
    result.latency.p99,
    ((after.cpuMicros - before.cpuMicros) / 1000 / sent).toFixed(2),
    (databaseMs / sent).toFixed(2),
    ((after.statements - before.statements) / sent).toFixed(1),
    Math.round(after.rss / 1024 / 1024),
    result.non2xx + (result.errors ? ` (+${result.errors} errors)` : ''),
  ]);
}

/** Runs scripts/bench-postgraphile.sh (its rows follow ours); resolves with its exit code. */
function runPostgraphile(url: string, { orgId, spaceId }: Seed): Promise<number | null> {
  const script = fileURLToPath(new URL('./bench-postgraphile.sh', import.meta.url));
  const child = spawn('bash', [script], {
    stdio: 'inherit',
    env: { ...process.env, ...(values.node ? { BENCH_NODE: values.node } : {}), DATABASE_URL: url, BENCH_ORG_ID: orgId, BENCH_SPACE_ID: spaceId, BENCH_SECONDS: String(seconds), BENCH_CONNECTIONS: String(connections) },
  });
  return new Promise((resolve) => child.once('exit', resolve));
}

// The servers run the compiled application, as `quire serve` does (see bench-target.ts).
if (process.env.QUIRE_BENCH_SOURCE !== 'src' && !process.env.QUIRE_BENCH_DIST) execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });

const embedded = process.env.DATABASE_URL ? undefined : await startEmbeddedPostgres({ dataDir: path.resolve('.quire/bench') });
const url = process.env.DATABASE_URL ?? embedded!.url;
try {
  await applyMigrations(url);
  const data = await seed(url);
  const headers = { authorization: `Bearer ${data.token}`, 'content-type': 'application/json' };
  const targets = { quire: await startBenchServer('quire', url, values.node), baseline: await startBenchServer('baseline', url, values.node) };
  console.log(
    `quire throughput: ${seconds}s per scenario after ${WARMUP_SECONDS}s warm-up, ${connections} connections, ` +
      `${os.availableParallelism()} CPUs shared by PostgreSQL, servers and load generator, servers on ${values.node ?? `node ${process.version}`}`,
  );
  console.log(row('scenario (CPU, SQL and RSS: server process)', COLUMNS));
  const only = values.only?.toUpperCase();
  for (const scenario of scenarios(data).filter((s) => !only || only.includes(s.name[0]))) {
    const target = targets[scenario.target];
    const failure = await verify(target.base, headers, scenario);
    if (failure) process.exitCode = 1;
    console.log(failure ? `${scenario.name.padEnd(NAME_WIDTH)}FAIL ${failure}` : await measure(target, headers, scenario));
  }
  await Promise.all(Object.values(targets).map((t) => t.stop()));
  if (values.postgraphile && (await runPostgraphile(url, data)) !== 0) process.exitCode = 1;
} finally {
  await embedded?.stop();
}
