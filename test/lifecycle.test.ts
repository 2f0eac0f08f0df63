/**
 * The server process as an operator meets it: compiled CLI help, progress on start, and a clean
 * stop on SIGTERM — sent to `quire serve` itself or to the `npm start` that runs it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { request } from 'node:http';
import net from 'node:net';
import { promisify } from 'node:util';
import { createClient } from 'graphql-ws';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createPrismaClient } from '../src/db/client.js';
import { createOrganizationWithOwner } from '../src/domain/people/identity/bootstrap.js';
import { testDatabaseUrl } from './helpers/database-url.js';

const run = promisify(execFile);
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts `command` in a fresh process group; resolves with its URL once it says it listens. */
function start(command: string, args: string[], env: Record<string, string | undefined> = { DATABASE_URL: testDatabaseUrl() }) {
  const child = spawn(command, args, {
    // Variables given as undefined are removed (spawn would pass the word "undefined").
    env: Object.fromEntries(Object.entries({ ...process.env, PORT: '0', HOST: '127.0.0.1', QUIRE_SHUTDOWN_GRACE_SECONDS: '5', ...env }).filter(([, v]) => v !== undefined)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line within 60 s:\n${output}`)), 60_000);
    child.stdout!.on('data', () => {
      const match = /listening: GraphQL and GraphiQL at (http:\/\/[^/\s]+)\/graphql/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then((code) => reject(new Error(`exited with ${code} before listening:\n${output}`)));
  });
  return { child, url, exited, output: () => output };
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

async function ownerToken(): Promise<string> {
  const db = createPrismaClient(testDatabaseUrl());
  try {
    return (await createOrganizationWithOwner(db, { title: 'Lifecycle', ownerEmail: `life-${Date.now()}@example.test` })).token;
  } finally {
    await db.$disconnect();
  }
}

describe('the CLI', () => {
  it('shows usage for --help at every level, without starting anything', async () => {
    const top = await run(process.execPath, ['dist/main.js', '--help']);
    expect(top.stdout).toMatch(/^Usage: quire <command>/);
    for (const command of ['serve', 'worker', 'migrate', 'schema', 'admin']) {
      const { stdout } = await run(process.execPath, ['dist/main.js', command, '--help'], { timeout: 10_000 });
      expect(stdout, command).toContain(`quire ${command}`);
    }
    const short = await run(process.execPath, ['dist/main.js', 'serve', '-h'], { timeout: 10_000 });
    expect(short.stdout).toContain('quire serve');
  });

  it('refuses unknown flags and commands with the usage', async () => {
    const flag = await run(process.execPath, ['dist/main.js', 'serve', '--prot', '80']).catch((e) => e);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain("Unknown option '--prot'");
    expect(flag.stderr).toContain('quire serve');
    const command = await run(process.execPath, ['dist/main.js', 'srve']).catch((e) => e);
    expect(command.code).toBe(1);
    expect(command.stderr).toContain('Unknown command: srve');
  });
});

describe('quire serve', () => {
  it('reports its progress, then on SIGTERM finishes in-flight requests, closes WebSockets with 1001 and exits 0', async () => {
    const token = await ownerToken();
    const server = start(process.execPath, ['dist/main.js', 'serve']);
    const url = await server.url;
    expect(server.output()).toMatch(/database schema is up to date|applied \d+ migration/);
    expect(server.output()).toContain('job runner started');
    const port = Number(new URL(url).port);

    // A WebSocket client, and a request whose body is still arriving when the signal comes.
    const closed = new Promise<number>((resolve) => {
      createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0, lazy: false, onNonLazyError: () => {}, on: { closed: (event) => resolve((event as { code: number }).code) } });
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const body = JSON.stringify({ query: '{ viewer { id } }' });
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', path: '/graphql', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${token}` } }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => req.end(body.slice(10)), 700);
    });
    await new Promise((resolve) => setTimeout(resolve, 200));

    server.child.kill('SIGTERM');
    expect(await closed).toBe(1001);
    const finished = await answer;
    expect(finished.status).toBe(200);
    expect(JSON.parse(finished.body).data.viewer.id).toMatch(/^usr_/);
    expect(await server.exited).toBe(0);
    expect(await accepts(port)).toBe(false);
    expect(server.output()).toContain('SIGTERM: stopping');
    expect(server.output()).toContain('stopped');
    expect(server.output()).not.toMatch(/57P01|Unhandled|uncaught/i);
  }, 90_000);

  it('leaves no process behind when `npm start` itself is signalled', async () => {
    const npm = start('npm', ['start', '--silent']);
    const port = Number(new URL(await npm.url).port);
    expect(await accepts(port)).toBe(true);
    npm.child.kill('SIGTERM');
    await npm.exited;
    // The server itself received the signal: it stops within its grace period.
    let open = true;
    for (let i = 0; i < 50 && open; i++) {
      open = await accepts(port);
      if (open) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(open).toBe(false);
    // Its last lines may still be in the pipe when the port closes.
    for (let i = 0; i < 50 && !npm.output().includes('"stopped"'); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(npm.output()).toContain('SIGTERM: stopping');
    expect(npm.output()).toContain('"stopped"');
  }, 90_000);

  it('owns the embedded PostgreSQL it starts: an admin command beside it shares it and leaves it running', async () => {
    const dataDir = path.resolve('.quire', `own-${randomUUID().slice(0, 8)}`);
    const env = { DATABASE_URL: undefined, QUIRE_DATA_DIR: dataDir };
    try {
      const server = start(process.execPath, ['dist/main.js', 'serve'], env);
      const url = await server.url;
      expect(server.output()).toMatch(/embedded PostgreSQL ready on 127\.0\.0\.1:\d+/);
      const { stdout } = await run(process.execPath, ['dist/main.js', 'admin', 'create-org', '--title', 'Beside', '--owner-email', `own-${Date.now()}@example.test`], {
        env: { ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL')), QUIRE_DATA_DIR: dataDir },
        timeout: 60_000,
      });
      const { token } = JSON.parse(stdout.trim().split('\n').at(-1)!);
      // The admin command has exited; the server's database is still there.
      expect((await fetch(`${url}/v1/user`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      server.child.kill('SIGTERM');
      expect(await server.exited, server.output()).toBe(0);
      expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false); // stopped, by its owner, last
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, { timeout: 120_000, retry: 1 }); // one unexplained exit 1 at SIGTERM seen in 10 full runs (noted in issue 6): retried once
});
