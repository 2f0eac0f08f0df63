/**
 * `quire serve` refusing to start, as an operator meets it (compiled: `npm run build` first): a
 * taken port or a HOST that is not this machine's fails before any database work, and a
 * DATABASE_URL that is not PostgreSQL's or does not answer fails naming DATABASE_URL; each in one
 * line on standard error, exit 1, no stack trace.
 */
import { execFile } from 'node:child_process';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';

/** A port of 127.0.0.1 held open for the whole file. */
const holder = net.createServer();
const held = new Promise<number>((resolve) => holder.listen(0, '127.0.0.1', () => resolve((holder.address() as net.AddressInfo).port)));
afterAll(() => new Promise((resolve) => holder.close(resolve)));

/** A database that cannot answer: nothing listens on port 1. */
const NOWHERE = 'postgresql://postgres@127.0.0.1:1/quire';

function serve(env: Record<string, string>): Promise<{ code: number | null; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ['dist/main.js', 'serve'], { env: { ...process.env, QUIRE_RATE_LIMIT: '0', ...env }, timeout: 60_000 }, (_error, _stdout, stderr) =>
      resolve({ code: child.exitCode, stderr: stderr.trim(), ms: Date.now() - started }),
    );
  });
}

function expectOneLine(stderr: string, pattern: RegExp) {
  expect(stderr.split('\n'), stderr).toHaveLength(1);
  expect(stderr).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('quire serve refusing to start', () => {
  it('fails on a taken port before touching the database', async () => {
    const port = await held;
    // The database does not answer: had it been tried first, that would be the error.
    const { code, stderr } = await serve({ PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: NOWHERE });
    expect(code).toBe(1);
    expectOneLine(stderr, new RegExp(`^Port ${port} on 127\\.0\\.0\\.1 is already in use \\(set PORT to a free port\\)$`));
  }, 60_000);

  it('fails on a HOST that is not an address of this machine before touching the database', async () => {
    // 192.0.2.1: TEST-NET-1, never assigned to a machine.
    const { code, stderr } = await serve({ PORT: '0', HOST: '192.0.2.1', DATABASE_URL: NOWHERE });
    expect(code).toBe(1);
    expectOneLine(stderr, /^HOST 192\.0\.2\.1 is not an address of this machine/);
  }, 60_000);

  it('fails on a DATABASE_URL that is not a PostgreSQL URL, naming it', async () => {
    const { code, stderr } = await serve({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'mysql://root@127.0.0.1:3306/quire' });
    expect(code).toBe(1);
    expectOneLine(stderr, /^DATABASE_URL is not a PostgreSQL URL/);
  }, 60_000);

  it('fails on a DATABASE_URL that does not answer, naming it and where it points, without its password', async () => {
    const { code, stderr } = await serve({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'postgresql://postgres:s3cret-word@127.0.0.1:1/quire' });
    expect(code).toBe(1);
    expectOneLine(stderr, /^DATABASE_URL: cannot connect to 127\.0\.0\.1:1\/quire: connect ECONNREFUSED/);
    expect(stderr).not.toContain('s3cret-word');
  }, 60_000);

  it('fails on a DATABASE_URL naming a database that does not exist', async () => {
    const missing = new URL(process.env.DATABASE_URL!);
    missing.pathname = '/quire_startup_no_such_database';
    const { code, stderr } = await serve({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: missing.toString() });
    expect(code).toBe(1);
    expectOneLine(stderr, /^DATABASE_URL: cannot connect to .*: database "quire_startup_no_such_database" does not exist$/);
  }, 60_000);
});
