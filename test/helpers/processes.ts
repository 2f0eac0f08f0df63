/**
 * quire as an operator runs it: `node dist/main.js <command>` child processes (killed at the end
 * of the file), on a database of the file's own so that no other test file's job runner takes
 * its jobs. Needs `npm run build` first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { ensureDatabase } from '../../src/db/embedded.js';
import { migrateQueue } from '../../src/db/queue-schema.js';
import { applyMigrations } from '../../src/db/schema-engine.js';

/** The database `name` on the server of `serverUrl`, created if missing, with quire's schema and the queue's migrated; its URL. */
export async function migratedDatabase(serverUrl: string, name: string): Promise<string> {
  const url = new URL(serverUrl);
  url.pathname = '/postgres';
  await ensureDatabase(url.toString(), name);
  url.pathname = `/${name}`;
  await applyMigrations(url.toString());
  await migrateQueue(url.toString());
  return url.toString();
}

/** A fresh, migrated database next to the test database (`adminUrl`); `drop()` removes it. */
export async function ownDatabase(adminUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomUUID().slice(0, 8)}`;
  const url = await migratedDatabase(adminUrl, name);
  const admin = new URL(adminUrl);
  admin.pathname = '/postgres';
  const maintenance = admin.toString();
  return {
    url,
    async drop() {
      const client = new pg.Client({ connectionString: maintenance });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => client.end());
    },
  };
}

export type Quire = { child: ChildProcess; matched: Promise<RegExpExecArray>; exited: Promise<unknown> };

/** Spawned processes, for `killAll` at the end of the file. */
const children: ChildProcess[] = [];

/** Starts `node dist/main.js <args>` with `env` added; `matched` resolves once its output matches `ready`. */
export function startQuire(args: string[], env: Record<string, string>, ready: RegExp): Quire {
  const child = spawn(process.execPath, ['dist/main.js', ...args], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', QUIRE_RATE_LIMIT: '0', QUIRE_LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  const matched = new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args[0]} not ready within 60 s:\n${output}`)), 60_000);
    const look = (chunk: Buffer) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) (clearTimeout(timer), resolve(match));
    };
    child.stdout!.on('data', look);
    child.stderr!.on('data', look);
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}:\n${output}`)));
  });
  matched.catch(() => {}); // awaited by the caller when it cares
  return { child, matched, exited };
}

/** The base URL of a `quire serve` once it listens. */
export const SERVE_READY = /listening: GraphQL and GraphiQL at (http:\/\/[^/\s]+)\/graphql/;
export const WORKER_READY = /worker running/;

export function killAll(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
