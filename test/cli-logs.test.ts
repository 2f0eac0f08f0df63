/**
 * The logs as an operator reads them: JSON when collected, readable lines on a terminal (or when
 * asked), a first line with the version and the configuration that matters and never a secret,
 * and one line at the start and at the end of every job a worker runs.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createPrismaClient, type Db } from '../src/db/client.js';
import { newId } from '../src/domain/kernel/ids.js';
import { createEventBus } from '../src/events/bus.js';
import { ImportError } from '../src/lib/import-readers/import-error.js';
import { runJob } from '../src/jobs/runner.js';
import { createLogger } from '../src/observability/logger.js';
import { VERSION } from '../src/observability/startup-summary.js';
import { createOrg } from './helpers/factories.js';
import { killAll, ownDatabase, SERVE_READY, startQuire, WORKER_READY } from './helpers/processes.js';
import { testDatabaseUrl } from './helpers/database-url.js';

const DB_PASSWORD = 'db-pass-5f3a9c';
const REDIS_PASSWORD = 'redis-pass-81d2e7';

let database: Awaited<ReturnType<typeof ownDatabase>>;
/** The file's own database, with a password (PostgreSQL trusts local connections: never sent, only shown if leaked). */
let databaseUrl: URL;

beforeAll(async () => {
  database = await ownDatabase(testDatabaseUrl(), 'quire_clilogs');
  databaseUrl = new URL(database.url);
  databaseUrl.password = DB_PASSWORD;
}, 120_000);
afterAll(async () => {
  killAll();
  await database?.drop();
});

/** Everything `args` printed until `ready` matched. */
async function outputUntil(args: string[], env: Record<string, string>, ready: RegExp): Promise<string> {
  const quire = startQuire(args, env, new RegExp(`[\\s\\S]*?${ready.source}`));
  const [output] = await quire.matched;
  quire.child.kill('SIGTERM');
  await quire.exited;
  return output;
}

const secretsOf = (output: string) => [DB_PASSWORD, REDIS_PASSWORD].filter((secret) => output.includes(secret));

describe('the start line', () => {
  it('gives the version and the configuration that matters, as JSON when output is collected, without a secret', async () => {
    const output = await outputUntil(
      ['serve'],
      { DATABASE_URL: databaseUrl.toString(), REDIS_URL: `redis://:${REDIS_PASSWORD}@127.0.0.1:6379`, QUIRE_RUN_WORKER: 'false', QUIRE_PUBLIC_URL: 'https://docs.example.test/' },
      SERVE_READY,
    );
    expect(secretsOf(output)).toEqual([]);
    const first = JSON.parse(output.split('\n')[0]!);
    expect(first.startup).toEqual({
      version: VERSION,
      role: 'server',
      database: `external 127.0.0.1:${databaseUrl.port}${databaseUrl.pathname}`,
      fileStore: expect.stringMatching(/^(disk|postgres)$/),
      redis: 'on 127.0.0.1:6379',
      worker: 'off',
      publicUrl: 'https://docs.example.test',
    });
    expect(first.msg).toBe(
      `quire ${VERSION} server: database external 127.0.0.1:${databaseUrl.port}${databaseUrl.pathname}, file store ${first.startup.fileStore}, Redis on 127.0.0.1:6379, worker off, public URL https://docs.example.test`,
    );
    // Each whole line (the last one is cut where `ready` matched).
    for (const line of output.split('\n').slice(0, -1)) expect(() => JSON.parse(line), line).not.toThrow();
  }, 90_000);

  it('is a readable line with QUIRE_LOG_FORMAT=pretty', async () => {
    const output = await outputUntil(['worker'], { DATABASE_URL: databaseUrl.toString(), QUIRE_LOG_FORMAT: 'pretty' }, WORKER_READY);
    expect(secretsOf(output)).toEqual([]);
    const [first] = output.split('\n');
    expect(first).toMatch(new RegExp(`^\\[\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\] INFO: quire ${VERSION.replaceAll('.', '\\.')} worker: database external 127\\.0\\.0\\.1:\\d+/quire_clilogs_\\w+, file store \\w+, Redis off, worker on, public URL http://localhost:\\d+$`));
    expect(output).toMatch(/\] INFO: worker running$/m);
    expect(output).not.toMatch(/^\{/m);
  }, 90_000);
});

describe('the log form on a terminal', () => {
  /** `quire worker` under a pseudo-terminal (`script`): its output until it runs. */
  function onTerminal(env: Record<string, string>): Promise<string> {
    const child = spawn('script', ['-qec', `${process.execPath} dist/main.js worker`, '/dev/null'], {
      env: { ...process.env, DATABASE_URL: databaseUrl.toString(), QUIRE_LOG_LEVEL: 'info', NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`not running within 60 s:\n${output}`))), 60_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk;
        if (!WORKER_READY.test(output)) return;
        clearTimeout(timer);
        child.once('exit', () => resolve(output.replaceAll('\r\n', '\n')));
        child.kill('SIGTERM'); // `script` ends the worker with its session
      });
    });
  }

  it('is readable by default, JSON when QUIRE_LOG_FORMAT=json', async () => {
    const readable = await onTerminal({});
    expect(readable).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: quire \S+ worker: /m);
    expect(readable).not.toMatch(/^\{"level"/m);
    const json = await onTerminal({ QUIRE_LOG_FORMAT: 'json' });
    expect(JSON.parse(json.split('\n')[0]!)).toMatchObject({ level: 'info', startup: { role: 'worker', redis: 'off' } });
  }, 150_000);
});

describe('jobs in the log', () => {
  let db: Db;
  beforeAll(() => {
    db = createPrismaClient(database.url);
  });
  afterAll(() => db?.$disconnect());

  it('logs the start and the end of each run: kind, id, attempt, state and duration', async () => {
    const lines: string[] = [];
    const logger = createLogger({ destination: { write: (line: string) => void lines.push(line) } });
    const services = { db, events: createEventBus(), logger, config: loadConfig({}) };
    const { org } = await createOrg(db);
    const row = () => db.job.create({ data: { id: newId('Job'), kind: 'import', organizationId: org.id } });
    const helpers = { job: { locked_by: 'log-test' } as never };

    const done = await row();
    await runJob(services, { import: async ({ complete }) => db.$transaction((tx) => complete(tx, { ok: true })) }, done.id, helpers);
    const failed = await row();
    await runJob(services, { import: async () => { throw new ImportError('HTTP_ERROR', 'The server answered 404'); } }, failed.id, helpers);

    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const of = (jobId: string) => entries.filter((e) => e.jobId === jobId).map(({ msg, kind, attempt, state }) => ({ msg, kind, attempt, state }));
    expect(of(done.id)).toEqual([
      { msg: 'job started', kind: 'import', attempt: 1, state: undefined },
      { msg: 'job ended', kind: 'import', attempt: 1, state: 'succeeded' },
    ]);
    expect(of(failed.id)).toEqual([
      { msg: 'job started', kind: 'import', attempt: 1, state: undefined },
      { msg: 'job ended', kind: 'import', attempt: 1, state: 'failed' },
    ]);
    const ended = entries.find((e) => e.jobId === done.id && e.msg === 'job ended')!;
    expect(ended.durationMs).toEqual(expect.any(Number));
  }, 60_000);
});
