/**
 * The server process of the benchmarks that drive quire through its API (bench-git-sync.ts,
 * bench-import.ts): the application and its job runner in one child process, as `quire serve`
 * runs them, answering its statistics over IPC — the job runner's SQL statements (its own Prisma
 * client, `onQuery`) by kind with their summed duration, CPU time, the longest the event loop was
 * held — and its RSS read from /proc (peak: VmHWM, reset through clear_refs). This module is also
 * the child's entry point.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createPrismaClient } from '../../src/db/client.js';
import { ensureDatabase } from '../../src/db/embedded.js';
import { applyMigrations } from '../../src/db/schema-engine.js';
import { createEventBus } from '../../src/events/bus.js';
import { startWorker } from '../../src/jobs/worker.js';
import { createLogger } from '../../src/observability/logger.js';
import { stopChild } from './stop-child.js';

const ROLE = 'QUIRE_BENCH_SERVER_ROLE';

/** Cumulative; `sqlByKind`: the job's statements by verb and table, with their summed duration. */
export type ServerStats = {
  jobStatements: number;
  jobSqlMs: number;
  cpuMicros: number;
  sqlByKind: Record<string, { count: number; ms: number }>;
  /** The longest the event loop was held since the last 'collect' (every request waits that long). */
  loopDelayMaxMs: number;
  /** The main thread's largest V8 heap (used) since the last 'collect', sampled every 50 ms: what of the RSS is its JavaScript. */
  heapUsedMax: number;
};
export type ServerMessage = { type: 'ready'; port: number } | ({ type: 'stats' } & ServerStats) | { type: 'collected' };

/** `INSERT SearchSection`, `SELECT ContentEntry`, `BEGIN`…: what a statement does, to group them. */
export function statementKind(sql: string): string {
  const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? '?';
  const table = /\b(?:FROM|INTO|UPDATE|JOIN)\s+(?:"public"\.)?"(\w+)"/i.exec(sql)?.[1];
  return table ? `${verb} ${table}` : verb;
}

/** The application and its job runner, as `quire serve` runs them; answers 'stats' over IPC. */
export async function serve(): Promise<void> {
  const url = process.env.QUIRE_BENCH_DATABASE_URL!;
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    QUIRE_RATE_LIMIT: '0',
    QUIRE_FETCH_ALLOW_PRIVATE_NETWORKS: 'true',
    // Lost jobs are looked for once at start, not every few seconds (their statements would count).
    QUIRE_JOB_STALE_SECONDS: '3600',
    QUIRE_DATA_DIR: process.env.QUIRE_BENCH_DATA_DIR!,
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('QUIRE_') && !k.startsWith('QUIRE_BENCH_'))),
  } as Record<string, string>;
  const config = { ...loadConfig(env), databaseUrl: url };
  const logger = createLogger({ level: 'warn' });
  const stats: ServerStats = { jobStatements: 0, jobSqlMs: 0, cpuMicros: 0, sqlByKind: {}, loopDelayMaxMs: 0, heapUsedMax: 0 };
  setInterval(() => (stats.heapUsedMax = Math.max(stats.heapUsedMax, process.memoryUsage().heapUsed)), 50).unref();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  // `quire serve` shares one pool; here the job runner has its own (as in test/helpers/server.ts), so
  // that its statements are counted apart from the requests polling git/info.
  const db = createPrismaClient(url, { poolMax: 5 });
  const workerDb = createPrismaClient(url, { poolMax: 5, onQuery: () => stats.jobStatements++ });
  // The same query events carry each statement's duration.
  (workerDb as unknown as { $on(e: 'query', cb: (e: { query: string; duration?: number }) => void): void }).$on('query', (e) => {
    const ms = Number(e.duration ?? 0);
    const kind = (stats.sqlByKind[statementKind(e.query)] ??= { count: 0, ms: 0 });
    kind.count++;
    kind.ms += ms;
    stats.jobSqlMs += ms;
  });
  const events = createEventBus({ logger });
  const worker = await startWorker(url, { db: workerDb, events, logger, config });
  const app = buildApp({ db, config, logger, events });
  const { port } = await app.start(0, '127.0.0.1');
  const send = (message: ServerMessage) => process.send!(message);
  process.on('message', (message) => {
    if (message === 'stats') {
      const cpu = process.cpuUsage();
      send({ type: 'stats', ...structuredClone(stats), cpuMicros: cpu.user + cpu.system, loopDelayMaxMs: loopDelay.max / 1e6 });
    } else if (message === 'collect') {
      // Garbage collected before a step, so that its RSS at rest is not the last step's leftovers.
      (globalThis as { gc?: () => void }).gc?.();
      // Freed pages reach the system a little later.
      setTimeout(() => (loopDelay.reset(), (stats.heapUsedMax = 0), send({ type: 'collected' })), 1000);
    }
  });
  process.on('disconnect', () => {
    void (async () => {
      await app.stop();
      await worker.stop();
      await events.close();
      await workerDb.$disconnect();
      await db.$disconnect();
      process.exit(0);
    })();
  });
  send({ type: 'ready', port });
}

export type Server = { base: string; pid: number; stats(): Promise<ServerStats>; collect(): Promise<void>; stop(): Promise<void> };

export function nextMessage<T extends ServerMessage['type']>(child: ChildProcess, type: T): Promise<Extract<ServerMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the server process exited (${code}) before sending '${type}'`));
    child.once('exit', onExit);
    child.once('message', (message: ServerMessage) => {
      child.off('exit', onExit);
      if (message.type === type) resolve(message as Extract<ServerMessage, { type: T }>);
      else reject(new Error(`the server process sent '${message.type}', expected '${type}'`));
    });
  });
}

/**
 * `profileDir`: a V8 CPU profile of the main thread written there when the process stops;
 * `snapshotDir`: a heap snapshot written there whenever the process gets SIGUSR2.
 */
export async function startServer(databaseUrl: string, dataDir: string, profileDir: string | undefined, snapshotDir?: string): Promise<Server> {
  const profile = [
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    ...(snapshotDir ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapshotDir}`] : []),
  ];
  // The same loader as this process (tsx): the server runs the TypeScript sources.
  const child = spawn(process.execPath, ['--expose-gc', ...profile, ...process.execArgv, fileURLToPath(import.meta.url)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [ROLE]: 'server', QUIRE_BENCH_DATABASE_URL: databaseUrl, QUIRE_BENCH_DATA_DIR: dataDir, NODE_ENV: process.env.NODE_ENV ?? 'production' },
  });
  const { port } = await nextMessage(child, 'ready');
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stats: async () => {
      const reply = nextMessage(child, 'stats');
      child.send('stats');
      const { type: _type, ...stats } = await reply;
      return stats;
    },
    collect: async () => {
      const reply = nextMessage(child, 'collected');
      child.send('collect');
      await reply;
    },
    stop: () => stopChild(child),
  };
}

/** A field of /proc/<pid>/status in bytes (Linux), null elsewhere. */
export async function procBytes(pid: number, field: 'VmHWM' | 'VmRSS'): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1];
  return kb ? Number(kb) * 1024 : null;
}
/** Peak RSS since the last reset (VmHWM, reset through clear_refs), and RSS now. */
export const peakRss = (pid: number) => procBytes(pid, 'VmHWM');
export const currentRss = (pid: number) => procBytes(pid, 'VmRSS');
export const resetPeakRss = (pid: number) => writeFile(`/proc/${pid}/clear_refs`, '5').catch(() => undefined);

/** `name` dropped and made again on DATABASE_URL's server (default postgresql://postgres@127.0.0.1:5432), migrated. */
export async function freshDatabase(name: string): Promise<string> {
  const base = new URL(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres');
  base.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
  await ensureDatabase(base.toString(), name);
  base.pathname = `/${name}`;
  await applyMigrations(base.toString());
  return base.toString();
}

export async function api(server: Server, token: string, method: string, route: string, body?: unknown): Promise<any> {
  const response = await fetch(`${server.base}/v1${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 400) throw new Error(`${method} ${route}: ${response.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : undefined;
}

if (process.env[ROLE] === 'server') await serve();
