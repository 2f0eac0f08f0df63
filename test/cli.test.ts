/** The admin CLI as an operator runs it: one JSON object on the last line of standard output. */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { testDatabaseUrl } from './helpers/database-url.js';

const run = promisify(execFile);

async function quire(...args: string[]) {
  const { stdout } = await run(process.execPath, ['dist/main.js', ...args], {
    env: { ...process.env, DATABASE_URL: testDatabaseUrl(), QUIRE_RUN_WORKER: 'false' },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

describe('admin CLI', () => {
  it('bootstraps an organization, users and tokens that work against the API', async () => {
    const email = `cli-${randomUUID().slice(0, 8)}@example.test`;
    const created = await quire('admin', 'create-org', '--title', 'CLI Org', '--owner-email', email, '--owner-name', 'Ops');
    expect(created.organization).toMatchObject({ object: 'organization', title: 'CLI Org' });
    expect(created.user).toMatchObject({ object: 'user', email, displayName: 'Ops' });
    expect(created.token).toMatch(/^quire_/);

    const member = await quire('admin', 'create-user', '--email', `m-${email}`, '--org', created.organization.id, '--role', 'edit');
    expect(member.user.email).toBe(`m-${email}`);
    const again = await quire('admin', 'create-token', '--email', email, '--name', 'deploy', '--expires-in-days', '30');
    expect(again.token).not.toBe(created.token);
    expect(again.apiToken).toMatchObject({ name: 'deploy' });
    expect(new Date(again.apiToken.expiresAt).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const listed = await quire('admin', 'list-tokens', '--email', email);
    expect(listed.apiTokens.map((t: { name: string }) => t.name)).toEqual(['', 'deploy']);
    expect(JSON.stringify(listed)).not.toContain(again.token);

    const { createPrismaClient } = await import('../src/db/client.js');
    const db = createPrismaClient(testDatabaseUrl());
    const membership = await db.member.findUnique({ where: { organizationId_userId: { organizationId: created.organization.id, userId: member.user.id } } });
    expect(membership?.role).toBe('edit');
    const tokens = await db.apiToken.findMany({ where: { userId: created.user.id } });
    expect(tokens).toHaveLength(2);
    expect(tokens.map((t) => t.digest)).not.toContain(created.token); // stored hashed
    expect(await quire('admin', 'revoke-token', '--email', email, '--id', again.apiToken.id)).toEqual({ revoked: again.apiToken.id });
    expect(await db.apiToken.count({ where: { userId: created.user.id } })).toBe(1);
    await db.$disconnect();
  }, 60_000);

  it('fails with a clear message on bad input', async () => {
    await expect(quire('admin', 'create-org', '--title', 'X', '--owner-email', 'not-an-email')).rejects.toThrow(/title|email/);
  }, 60_000);
});

describe('serve', () => {
  /** `quire serve` with `env`: its exit code and standard error (it must exit by itself). */
  function serve(env: Record<string, string>) {
    return run(process.execPath, ['dist/main.js', 'serve'], {
      env: { ...process.env, DATABASE_URL: testDatabaseUrl(), QUIRE_RUN_WORKER: 'false', ...env },
      timeout: 45_000,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code?: number; stderr?: string; killed?: boolean }) => ({ code: error.killed ? 'timeout' : error.code, stderr: error.stderr ?? '' }),
    );
  }

  it('exits non-zero at once, naming the problem, when the port is taken or HOST is not this machine', async () => {
    const { createServer } = await import('node:net');
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = String((taken.address() as { port: number }).port);
    try {
      const busy = await serve({ PORT: port, HOST: '127.0.0.1' });
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
    } finally {
      taken.close();
    }
    const elsewhere = await serve({ PORT: '0', HOST: '203.0.113.7' }); // TEST-NET-3: no machine has it
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain('HOST 203.0.113.7 is not an address of this machine');
  }, 120_000);
});

describe('migrate', () => {
  it('lets instances starting together on an empty database wait for one another', async () => {
    const { ensureDatabase } = await import('../src/db/embedded.js');
    const url = new URL(testDatabaseUrl());
    const name = `quire_miglock_${randomUUID().slice(0, 8)}`;
    const admin = new URL(url);
    admin.pathname = '/postgres';
    await ensureDatabase(admin.toString(), name);
    url.pathname = `/${name}`;
    try {
      const runs = await Promise.all(
        [1, 2, 3].map(() => run(process.execPath, ['dist/main.js', 'migrate'], { env: { ...process.env, DATABASE_URL: url.toString() }, timeout: 120_000 })),
      );
      const outputs = runs.map((r) => r.stdout.trim());
      expect(outputs.filter((o) => o.startsWith('Applied: '))).toHaveLength(1);
      expect(outputs.filter((o) => o === 'Database is up to date')).toHaveLength(2);
    } finally {
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: admin.toString() });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    }
  }, 180_000);
});
