/**
 * /healthz and /readyz of a real `quire serve` (compiled: `npm run build` first) on an embedded
 * PostgreSQL of its own, and what they say when that PostgreSQL is killed: the server starts it
 * again on the same port and serves again (no "503 forever"), /healthz saying 200 all along since
 * restarting the process would not help; /readyz saying 503 while the database is away. On
 * SIGTERM, an open SSE subscription ends at once and the server exits without waiting its grace
 * period.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { postSubscription, sseResults } from './helpers/sse.js';
import { killAll, SERVE_READY, startQuire } from './helpers/processes.js';

const run = promisify(execFile);
const dataDir = path.resolve('.quire', `health-${randomUUID().slice(0, 8)}`);
const env = { QUIRE_DATA_DIR: dataDir, QUIRE_SHUTDOWN_GRACE_SECONDS: '20' };
// The server and the admin commands here run the embedded PostgreSQL: no DATABASE_URL reaches them.
delete process.env.DATABASE_URL;

afterAll(async () => {
  killAll();
  // A postmaster left by a failed test: stopped by pid before its directory goes.
  const pid = Number((await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => '')).split('\n')[0]);
  if (pid) process.kill(pid, 'SIGINT');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await rm(dataDir, { recursive: true, force: true });
});

const postmasterPid = async () => Number((await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
/** An organization and its owner's token, made by `quire admin` beside the server (sharing its PostgreSQL). */
async function createOrg(title: string): Promise<{ token: string; organization: { id: string } }> {
  const { stdout } = await run(process.execPath, ['dist/main.js', 'admin', 'create-org', '--title', title, '--owner-email', `${title.toLowerCase()}-${Date.now()}@example.test`], {
    env: { ...process.env, QUIRE_DATA_DIR: dataDir },
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

const status = async (url: string) => {
  const response = await fetch(url);
  return { code: response.status, body: await response.json() };
};

describe('health of a quire serve on its embedded PostgreSQL', () => {
  const server = startQuire(['serve'], env, SERVE_READY);
  let base = '';

  it('is live and ready once it listens', async () => {
    base = (await server.matched)[1];
    expect(await status(`${base}/healthz`)).toEqual({ code: 200, body: { status: 'ok' } });
    expect(await status(`${base}/readyz`)).toEqual({ code: 200, body: { status: 'ready' } });
  }, 90_000);

  it('restarts its PostgreSQL when it is killed and serves again; /healthz stays 200, /readyz is 503 meanwhile', async () => {
    const { token } = await createOrg('Health');
    const user = () => fetch(`${base}/v1/user`, { headers: { authorization: `Bearer ${token}` } });
    expect((await user()).status).toBe(200);

    const killed = await postmasterPid();
    process.kill(killed, 'SIGKILL'); // as the OOM killer does
    await expect.poll(async () => (await status(`${base}/readyz`)).code, { timeout: 5_000, interval: 20 }).toBe(503);
    expect(await status(`${base}/healthz`)).toEqual({ code: 200, body: { status: 'ok' } });

    await expect.poll(async () => (await status(`${base}/readyz`)).code, { timeout: 60_000, interval: 250 }).toBe(200);
    expect(await postmasterPid()).not.toBe(killed);
    await expect.poll(async () => (await user()).status, { timeout: 10_000, interval: 250 }).toBe(200);
    expect(await status(`${base}/healthz`)).toEqual({ code: 200, body: { status: 'ok' } });
  }, 120_000);

  it('ends an open SSE subscription at once on SIGTERM, and exits 0 well within its grace period', async () => {
    const { token, organization } = await createOrg('Stream');
    const abort = new AbortController();
    const response = await postSubscription(base, token, 'subscription($id: ID!) { organizationEvents(organizationId: $id) { kind } }', { id: organization.id }, abort.signal);
    const ended = (async () => {
      for await (const _ of sseResults(response));
    })();
    const started = Date.now();
    server.child.kill('SIGTERM');
    await ended; // the stream ends, without the client aborting it
    expect(await server.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(8_000); // the grace period is 20 s
    expect(existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false); // its PostgreSQL stopped too
  }, 60_000);
});
