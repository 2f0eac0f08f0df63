/**
 * The `quire` command itself: its help, version and usage errors, run as an operator runs it —
 * `node dist/main.js`, `npx quire` from the checkout, and `quire` from a global install.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl } from './helpers/database-url.js';

const execFileAsync = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const { version } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { version: string };
/** Nothing listens there: a command that reaches for the database fails, and says so. */
const NO_DATABASE = 'postgresql://postgres@127.0.0.1:1/none';

type Outcome = { code: number; stdout: string; stderr: string };

async function exec(file: string, args: string[], options: { env?: Record<string, string>; cwd?: string; timeout?: number } = {}): Promise<Outcome> {
  try {
    const { stdout, stderr } = await execFileAsync(file, args, { cwd: options.cwd ?? root, env: { ...process.env, ...options.env }, timeout: options.timeout ?? 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const quire = (args: string[], env: Record<string, string> = { DATABASE_URL: NO_DATABASE }) => exec(process.execPath, ['dist/main.js', ...args], { env });

describe('quire', () => {
  it('alone prints the usage and exits 0 instead of serving', async () => {
    const alone = await quire([]);
    expect(alone.code).toBe(0);
    expect(alone.stdout).toMatch(/^Usage: quire <command>/);
    for (const command of ['serve', 'worker', 'migrate', 'schema print', 'admin create-org']) expect(alone.stdout).toContain(`quire ${command}`);
    expect(alone.stderr).toBe('');
  });

  it('prints the version of package.json', async () => {
    for (const flag of ['--version', '-v']) expect(await quire([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('gives each command its own --help, which does nothing else', async () => {
    const expected: Record<string, RegExp> = {
      serve: /Start the HTTP server/,
      worker: /Run background jobs only/,
      migrate: /quire migrate check/,
      schema: /quire schema print/,
      admin: /quire admin revoke-token --email E --id TOKEN_ID/,
    };
    for (const [command, usage] of Object.entries(expected)) {
      const help = await quire([command, '--help']);
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).toMatch(/^Usage: quire /);
      expect(help.stdout, command).toMatch(usage);
      expect(await quire(['help', command]), command).toEqual(help);
    }
    // A subcommand's --help too, and -h: the usage, no database.
    expect((await quire(['admin', 'create-org', '-h'])).stdout).toMatch(/quire admin create-org --title T --owner-email E/);
  });

  it('names an unknown command or flag, with the usage, and exits 1', async () => {
    const unknown = await quire(['serv']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^Unknown command: serv\n\nUsage: quire <command>/);
    const flag = await quire(['admin', 'create-org', '--owner', 'x@example.test']);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain("Unknown option '--owner'");
    expect(flag.stderr).toContain('Usage: quire admin create-org');
  });

  it('reports mistakes in flags by their flag name, before touching the database', async () => {
    const missing = await quire(['admin', 'create-org', '--title', 'Acme']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^--owner-email is required\n/);
    const role = await quire(['admin', 'create-user', '--email', 'a@example.test', '--org', 'org_1', '--role', 'boss']);
    expect(role.code).toBe(1);
    expect(role.stderr).toMatch(/^--role must be one of: admin, create, review, edit, comment, read, guest \(got "boss"\)\n/);
    const sub = await quire(['admin', 'create-group']);
    expect(sub.stderr).toMatch(/^Unknown admin command: create-group; one of: create-org, create-user, create-token, list-tokens, revoke-token\n/);
    for (const outcome of [missing, role, sub]) expect(outcome.stderr).not.toMatch(/127\.0\.0\.1:1|ECONNREFUSED|database/i);
  });

  it('names the flag, not the API field, when the value is refused', async () => {
    const refused = await quire(['admin', 'create-org', '--title', 'Acme', '--owner-email', 'not-an-email'], { DATABASE_URL: testDatabaseUrl(), QUIRE_RUN_WORKER: 'false' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^Invalid value for --owner-email: Invalid email address\n/);
    expect(refused.stderr).not.toContain('ownerEmail');
  }, 60_000);
});

describe('installed as a command', () => {
  const prefixes: string[] = [];
  afterAll(async () => {
    for (const prefix of prefixes) await rm(prefix, { recursive: true, force: true });
  });

  it('runs as `npx quire` from the checkout', async () => {
    const npx = await exec('npx', ['--no-install', 'quire', '--version'], { timeout: 120_000 });
    expect(npx, npx.stderr).toMatchObject({ code: 0, stdout: `${version}\n` });
  }, 150_000);

  it('runs as `quire` after `npm install -g .`, from any directory', async () => {
    const prefix = await mkdtemp(path.join(tmpdir(), 'quire-global-'));
    prefixes.push(prefix);
    const install = await exec('npm', ['install', '-g', '.', '--no-audit', '--no-fund', '--offline'], { env: { npm_config_prefix: prefix }, timeout: 240_000 });
    expect(install.code, install.stderr).toBe(0);
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'quire-cwd-'));
    prefixes.push(elsewhere);
    const env = { PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}`, DATABASE_URL: NO_DATABASE };
    expect(await exec('quire', ['--version'], { cwd: elsewhere, env })).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    const help = await exec('quire', ['admin', '--help'], { cwd: elsewhere, env });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: quire admin create-org/);
  }, 300_000);
});
