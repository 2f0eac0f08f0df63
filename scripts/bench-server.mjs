/**
 * Child process of the benchmarks (bench-throughput.ts, bench-published.ts): serves one target on
 * 127.0.0.1 (a free port), so that the parent's load generator does not share this process's CPU.
 * Spawned as
 *   DATABASE_URL=postgresql://… node scripts/bench-server.mjs quire|baseline
 * (see bench-target.ts, which starts it; plain JavaScript, so that it runs without a loader)
 * with an IPC channel:
 *   - quire    the real application (buildApp), its pool's connections counting SQL statements;
 *   - baseline a physical-limit BASELINE for request A only: bare node:http + pg answering
 *              GET /v1/spaces/{id} with one SELECT (space row joined with the bearer token's
 *              digest and the caller's membership), no GraphQL, no permissions computed.
 * IPC: sends {type: 'ready', port} once listening; answers 'stats' with {type: 'stats', cpuMicros,
 * statements, rss, peakRss, heapUsed, external} (cumulative; memory in bytes, peakRss the most the
 * process has held, from /proc on Linux), once the requests still in flight are done; exits when the
 * parent disconnects.
 */
// @ts-check
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';

const POOL_MAX = 10; // quire's default QUIRE_DB_POOL_MAX, for both targets

let statements = 0;

/** Counts every statement a connection of the pool sends (connections open lazily, after this). */
function countStatementsOf(/** @type {pg.Pool} */ pool) {
  pool.on('connect', (client) => {
    const query = client.query;
    client.query = /** @type {any} */ (
      function (/** @type {unknown[]} */ ...args) {
        statements++;
        return /** @type {any} */ (query).apply(this, args);
      }
    );
  });
}

/**
 * The application as `quire serve` runs it: the compiled `dist/` (bench-throughput.ts builds it
 * first); `QUIRE_BENCH_SOURCE=src` runs the TypeScript sources instead (through tsx), and
 * `QUIRE_BENCH_DIST=dir` another build (a copy of `dist/` inside the repository, so that its
 * imports find node_modules), to compare two builds in alternated runs.
 */
const ROOT = process.env.QUIRE_BENCH_DIST
  ? pathToFileURL(path.resolve(process.env.QUIRE_BENCH_DIST)).href
  : process.env.QUIRE_BENCH_SOURCE === 'src'
    ? '../src'
    : '../dist';

async function startQuire(/** @type {string} */ url) {
  const { buildApp } = await import(`${ROOT}/app.js`);
  const { loadConfig } = await import(`${ROOT}/config.js`);
  const { createPrismaClient, poolOf } = await import(`${ROOT}/db/client.js`);
  // Statements are counted at the pool's connections, as for the baseline and PostGraphile: Prisma's
  // own query event would add work of its own (an event object and its parameters as JSON per query).
  const db = createPrismaClient(url, { poolMax: POOL_MAX });
  countStatementsOf(poolOf(db));
  const app = buildApp({ db, config: { ...loadConfig({ PORT: '0', QUIRE_RATE_LIMIT: process.env.QUIRE_RATE_LIMIT ?? '1000000000', ...(process.env.QUIRE_PUBLISHED_CACHE_MB ? { QUIRE_PUBLISHED_CACHE_MB: process.env.QUIRE_PUBLISHED_CACHE_MB } : {}) }), databaseUrl: url } });
  // As `quire serve` does before its port opens (observability/startup-collection.ts; a build of
  // QUIRE_BENCH_DIST from before it has none).
  const collection = await import(`${ROOT}/observability/startup-collection.js`).catch(() => undefined);
  collection?.collectStartupGarbage();
  const { port } = await app.start(0, '127.0.0.1');
  const stop = async () => {
    await app.stop();
    await db.$disconnect();
  };
  return { port, stop };
}

const SPACE_BY_ID_FOR_TOKEN = `
  SELECT s.id, s.title, s.emoji, s.visibility, s."createdAt", s."updatedAt"
  FROM "Space" s
  JOIN "Member" m ON m."organizationId" = s."organizationId" AND NOT m.disabled
  JOIN "ApiToken" t ON t."userId" = m."userId"
  WHERE s.id = $1 AND t.digest = $2`;

/** The baseline's only route; an unknown space and a bad token both answer 404 (one statement). */
/** @returns {Promise<[number, unknown]>} */
async function answerSpace(/** @type {pg.Pool} */ pool, /** @type {import('node:http').IncomingMessage} */ req) {
  const id = /^\/v1\/spaces\/([^/?]+)$/.exec(req.url ?? '')?.[1];
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (!id || !token) return [404, { error: { code: 404, message: 'Not found' } }];
  // Named: prepared once per connection, then only bound and executed (as quire's statements are).
  const { rows } = await pool.query({ name: 'space_by_id_for_token', text: SPACE_BY_ID_FOR_TOKEN, values: [id, createHash('sha256').update(token).digest('hex')] });
  return rows[0] ? [200, { object: 'space', ...rows[0] }] : [404, { error: { code: 404, message: 'Not found' } }];
}

async function startBaseline(/** @type {string} */ url) {
  const pool = new pg.Pool({ connectionString: url, max: POOL_MAX });
  countStatementsOf(pool);
  const reply = (/** @type {import('node:http').ServerResponse} */ res, /** @type {[number, unknown]} */ [status, body]) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    answerSpace(pool, req).then(
      (answer) => reply(res, answer),
      (error) => (console.error('[baseline]', error), reply(res, [500, { error: { code: 500, message: 'Internal server error' } }])),
    );
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const stop = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await pool.end();
  };
  return { port: /** @type {import('node:net').AddressInfo} */ (server.address()).port, stop };
}

/** @returns {import('./bench-target.js').Stats} */
function snapshot() {
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  return { cpuMicros: cpu.user + cpu.system, statements, rss: memory.rss, peakRss: peakRss() ?? memory.rss, heapUsed: memory.heapUsed, external: memory.external };
}

/** The most RSS this process has held (VmHWM), where /proc tells it. */
function peakRss() {
  try {
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Stats once this process is idle: 250 ms with no SQL statement and under 5 ms of CPU (10 s at most). */
async function settledStats() {
  let last = snapshot();
  for (let i = 0; i < 40; i++) {
    await sleep(250);
    const next = snapshot();
    if (next.statements === last.statements && next.cpuMicros - last.cpuMicros < 5000) return next;
    last = next;
  }
  return last;
}

const kind = process.argv[2];
const url = process.env.DATABASE_URL;
if (!process.send || !url || (kind !== 'quire' && kind !== 'baseline')) {
  throw new Error('usage: DATABASE_URL=… node scripts/bench-server.mjs quire|baseline (with an IPC channel)');
}
const send = (/** @type {object} */ message) => process.send?.(message);
const server = kind === 'quire' ? await startQuire(url) : await startBaseline(url);
process.on('message', (message) => {
  if (message === 'stats') void settledStats().then((stats) => send({ type: 'stats', ...stats }));
});
process.on('disconnect', () => void server.stop().then(() => process.exit(0)));
send({ type: 'ready', port: server.port });
