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
 *   DATABASE_URL=postgresql://… npx tsx scripts/bench-throughput.ts [--seconds 10] [--connections 20] [--postgraphile [--rounds N]] [--node PATH] [--only B]
 * Without DATABASE_URL it uses the embedded PostgreSQL under ./.quire/bench. --postgraphile then
 * runs scripts/bench-postgraphile.sh (PostGraphile 5, installed outside the repo, on Node 24 unless
 * --node) after quire's rows; --node runs every server (quire, baseline, PostGraphile) with another
 * Node binary; the servers run the compiled `dist/` (built first), the sources with
 * QUIRE_BENCH_SOURCE=src, or another build with QUIRE_BENCH_DIST=dir (a copy of dist/ inside the
 * repository, not rebuilt); --only runs the requests whose letter is given ("B", "AC"), for quire
 * only (PostGraphile's too with --rounds).
 * --rounds N (N ≥ 2, with --postgraphile; default 1, the run above): PostGraphile measured minutes
 * after quire met another machine (the shared machine drifts by a quarter from minute to minute), so
 * the targets alternate instead. quire, the baseline and PostGraphile (bench-postgraphile.sh serve,
 * started by bench-target.ts) run side by side for the whole run; per read (A: quire's REST and
 * GraphQL requests, the baseline and PostGraphile's A together; then B; then C) each request is
 * checked, each warms up once (4 s, PostGraphile too), then they are measured --seconds each in
 * turn, N rounds, the order reversed every other round (A: REST, baseline, GraphQL, PostGraphile,
 * then PostGraphile, GraphQL, baseline, REST, …). Reversed rather than repeated: under a steady
 * drift a fixed order always measures the first target earlier than the last, whereas each pair of
 * reversed rounds gives every target the same mean time (an odd N leaves one round unpaired). A row is
 * the median over the rounds of each column (RSS: the largest; non-2xx: the sum), followed per quire
 * request by quire ÷ PostGraphile of the median req/s and of the median CPU ms/req, and the lowest
 * and highest req/s of the rounds (the noise); the baseline gets its req/s range.
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
import { startBenchServer, startPostgraphile, type Target } from './bench-target.js';
import { postgraphileReads } from './bench-support/postgraphile-reads.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    postgraphile: { type: 'boolean', default: false },
    node: { type: 'string' },
    only: { type: 'string' },
    rounds: { type: 'string', default: '1' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds takes a whole number from 1 on, not ${values.rounds}`);
if (rounds > 1 && !values.postgraphile) throw new Error('--rounds N (N ≥ 2) alternates quire and PostGraphile: it needs --postgraphile');
// The first scenario of a fresh server pays for its code's optimization: 2 s were not enough.
const WARMUP_SECONDS = 4;

type Kind = 'quire' | 'baseline' | 'postgraphile';
type Scenario = {
  name: string;
  target: Kind;
  request: { method: 'GET' | 'POST'; path: string; body?: string };
  /** What is wrong with the answer, or undefined when it is the expected one. */
  check(body: any): string | undefined;
};
/** A scenario on its server, with the headers of its requests. */
type Run = { scenario: Scenario; target: Target; headers: Record<string, string> };

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

/** PostGraphile's reads (the documents bench-postgraphile.sh sends too). */
const postgraphileScenarios = (data: Seed): Scenario[] => postgraphileReads(SIZE, data).map(({ name, body, check }) => ({ name, target: 'postgraphile', request: { method: 'POST', path: '/graphql', body }, check }));

async function verify({ scenario, target, headers }: Run): Promise<string | undefined> {
  const response = await fetch(target.base + scenario.request.path, { method: scenario.request.method, headers, body: scenario.request.body });
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

/** One measurement of a scenario, in the columns' units (CPU, DB CPU and SQL per request sent; RSS in bytes). */
type Measurement = { requests: number; p50: number; p99: number; cpuMs: number; databaseMs: number; statements: number; rss: number; non2xx: number; errors: number };

const load = ({ scenario, target, headers }: Run, duration: number) => autocannon({ url: target.base, connections, duration, headers, requests: [scenario.request] });

async function measure(run: Run): Promise<Measurement> {
  const before = await run.target.stats();
  const databaseBefore = databaseCpuMs();
  const result = await load(run, seconds);
  const after = await run.target.stats();
  const databaseMs = databaseCpuMs() - databaseBefore;
  const sent = result.requests.sent;
  return {
    requests: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMs: (after.cpuMicros - before.cpuMicros) / 1000 / sent,
    databaseMs: databaseMs / sent,
    statements: (after.statements - before.statements) / sent,
    rss: after.rss,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

const formatRow = (name: string, m: Measurement) =>
  row(name, [Math.round(m.requests), m.p50, m.p99, m.cpuMs.toFixed(2), m.databaseMs.toFixed(2), m.statements.toFixed(1), Math.round(m.rss / 1024 / 1024), m.non2xx + (m.errors ? ` (+${m.errors} errors)` : '')]);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The rounds' median of each column; RSS the largest, non-2xx and errors their sum. */
function overRounds(ms: Measurement[]): Measurement {
  const of = (key: keyof Measurement) => ms.map((m) => m[key]);
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
  return {
    requests: median(of('requests')),
    p50: median(of('p50')),
    p99: median(of('p99')),
    cpuMs: median(of('cpuMs')),
    databaseMs: median(of('databaseMs')),
    statements: median(of('statements')),
    rss: Math.max(...of('rss')),
    non2xx: sum(of('non2xx')),
    errors: sum(of('errors')),
  };
}

/**
 * One read's runs (checked already): each warmed up once, then measured `rounds` times in turn, the
 * order reversed every other round; prints their rows and, per quire run, the ratios to
 * PostGraphile's medians and the spread of req/s over the rounds.
 */
async function alternate(runs: Run[]): Promise<void> {
  for (const run of runs) await load(run, WARMUP_SECONDS);
  const measurements = runs.map((): Measurement[] => []);
  const order = runs.map((_, i) => i);
  for (let round = 0; round < rounds; round++) {
    for (const i of round % 2 ? order.toReversed() : order) measurements[i].push(await measure(runs[i]));
  }
  const medians = measurements.map(overRounds);
  runs.forEach((run, i) => console.log(formatRow(run.scenario.name, medians[i])));
  const spread = (i: number) => `${Math.round(Math.min(...measurements[i].map((m) => m.requests)))}–${Math.round(Math.max(...measurements[i].map((m) => m.requests)))}`;
  const p = runs.findIndex((run) => run.scenario.target === 'postgraphile');
  runs.forEach((run, i) => {
    const label = `   ${run.scenario.name.split(/\s+/, 2).join(' ')}`;
    const ratio = (key: 'requests' | 'cpuMs') => (medians[i][key] / medians[p][key]).toFixed(2);
    if (run.scenario.target === 'quire' && p >= 0)
      console.log(`${label} ÷ PostGraphile: req/s ${ratio('requests')}×, CPU ms/req ${ratio('cpuMs')}× (medians); req/s over ${rounds} rounds ${spread(i)} against ${spread(p)}`);
    else if (i !== p) console.log(`${label}: req/s over ${rounds} rounds ${spread(i)}`);
  });
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
  const targets: Partial<Record<Kind, Target>> = {};
  try {
    targets.quire = await startBenchServer('quire', url, values.node);
    targets.baseline = await startBenchServer('baseline', url, values.node);
    const postgraphile = rounds > 1 ? (targets.postgraphile = await startPostgraphile(url, values.node)) : undefined;
    console.log(
      `quire throughput: ${seconds}s per scenario ${postgraphile ? `and round (median of ${rounds}, alternating the servers) ` : ''}after ${WARMUP_SECONDS}s warm-up, ${connections} connections, ` +
        `${os.availableParallelism()} CPUs shared by PostgreSQL, servers and load generator, servers on ${values.node ?? `node ${process.version}`}`,
    );
    if (postgraphile) console.log(postgraphile.description);
    console.log(row('scenario (CPU, SQL and RSS: server process)', COLUMNS));
    const only = values.only?.toUpperCase();
    const all = [...scenarios(data), ...(postgraphile ? postgraphileScenarios(data) : [])].filter((s) => !only || only.includes(s.name[0]));
    const checked: Run[] = [];
    for (const scenario of all) {
      const run = { scenario, target: targets[scenario.target]!, headers: scenario.target === 'postgraphile' ? { 'content-type': 'application/json' } : headers };
      const failure = await verify(run);
      if (failure) {
        process.exitCode = 1;
        console.log(`${scenario.name.padEnd(NAME_WIDTH)}FAIL ${failure}`);
      } else if (postgraphile) checked.push(run);
      else console.log(formatRow(scenario.name, (await load(run, WARMUP_SECONDS), await measure(run))));
    }
    // A's runs (quire's REST and GraphQL, the baseline, PostGraphile) alternate together, then B's, then C's.
    for (const letter of new Set(checked.map((run) => run.scenario.name[0]))) await alternate(checked.filter((run) => run.scenario.name[0] === letter));
  } finally {
    await Promise.all(Object.values(targets).map((t) => t.stop()));
  }
  if (values.postgraphile && rounds === 1 && (await runPostgraphile(url, data)) !== 0) process.exitCode = 1;
} finally {
  await embedded?.stop();
}
