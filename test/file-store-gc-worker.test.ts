/**
 * The file garbage collection run by the job runner (jobs/file-gc.ts): two instances' workers
 * queue one collection between them, it runs once when due, logs what it removed and queues the
 * next one an interval later; QUIRE_FILE_GC_INTERVAL_HOURS=0 takes it off the queue.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig, type Config } from '../src/config.js';
import { createPrismaClient, type Db } from '../src/db/client.js';
import { blobStore } from '../src/domain/versions/files/blob-store.js';
import { createEventBus } from '../src/events/bus.js';
import { FILE_GC_TASK } from '../src/jobs/file-gc.js';
import { startWorker, type Worker } from '../src/jobs/worker.js';
import { createLogger } from '../src/observability/logger.js';
import { createMetrics } from '../src/observability/metrics.js';
import { ownDatabase } from './helpers/processes.js';
import { testDatabaseUrl } from './helpers/database-url.js';

const HOUR = 3600_000;
const cleanup: (() => Promise<unknown>)[] = [];
let url: string;
let db: Db;
let dataDir: string;

beforeAll(async () => {
  const database = await ownDatabase(testDatabaseUrl(), 'quire_file_gc_worker');
  url = database.url;
  cleanup.push(() => database.drop());
  db = createPrismaClient(url, { poolMax: 3 });
  cleanup.push(() => db.$disconnect());
  dataDir = await mkdtemp(path.join(tmpdir(), 'quire-file-gc-worker-'));
  cleanup.push(() => rm(dataDir, { recursive: true, force: true }));
});
afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
});

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A worker as `quire worker` runs one (its own database client and logger), stopped with the test file. */
async function instance(env: Record<string, string>): Promise<{ worker: Worker; lines: string[]; config: Config }> {
  const config: Config = { ...loadConfig({ QUIRE_FILE_STORE: 'postgres', QUIRE_DATA_DIR: dataDir, ...env }), databaseUrl: url };
  const lines: string[] = [];
  const logger = createLogger({ destination: { write: (line: string) => void lines.push(line) } });
  const workerDb = createPrismaClient(url, { poolMax: 3 });
  const events = createEventBus({ logger });
  const worker = await startWorker(url, { db: workerDb, events, logger, config });
  cleanup.push(() => workerDb.$disconnect(), () => events.close(), () => worker.stop());
  return { worker, lines, config };
}

/** The collection jobs queued: when each runs, and whether it runs now. */
const queued = () =>
  db.$queryRaw<{ runInSeconds: number; locked: boolean }[]>`
    SELECT extract(epoch FROM run_at - now())::float AS "runInSeconds", locked_at IS NOT NULL AS locked
    FROM graphile_worker.jobs WHERE task_identifier = ${FILE_GC_TASK} ORDER BY run_at`;

const collections = (lines: string[]) => lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg.startsWith('file garbage collection'));

it('runs the collection in the worker: one queued across instances, run once when due, logged, the next one queued an interval later', async () => {
  const store = blobStore({ dataDir, fileStore: 'postgres' }, db);
  const old = await store.put(randomBytes(3000));
  const fresh = await store.put(randomBytes(3000));
  await db.$executeRaw`UPDATE "FileBlobTouch" SET "touchedAt" = LOCALTIMESTAMP - make_interval(hours => 2) WHERE "sha256" = ${old}`;

  const env = { QUIRE_FILE_GC_INTERVAL_HOURS: '6', QUIRE_FILE_GC_GRACE_HOURS: '1' };
  const a = await instance(env);
  const [first] = await queued();
  const b = await instance(env); // a second instance starting later neither adds a run nor postpones it
  const jobs = await queued();
  expect(jobs).toHaveLength(1);
  expect(jobs[0]!.runInSeconds).toBeGreaterThan(0);
  expect(jobs[0]!.runInSeconds).toBeLessThanOrEqual(first!.runInSeconds);
  expect(jobs[0]!.runInSeconds).toBeLessThanOrEqual(60);
  // So are the other recurring tasks (jobs/recurring.ts): one queued run each across the instances.
  const recurring = await db.$queryRaw<{ task: string; runs: number }[]>`
    SELECT task_identifier AS task, count(*)::int AS runs FROM graphile_worker.jobs GROUP BY task_identifier ORDER BY task_identifier`;
  expect(recurring).toEqual(['check_custom_hostnames', FILE_GC_TASK, 'delete_old_webhook_deliveries', 'purge_deleted_spaces'].sort().map((task) => ({ task, runs: 1 })));

  // Made due now (graphile-worker's own function, as an operator could).
  await db.$executeRaw`SELECT graphile_worker.add_job(${FILE_GC_TASK}, '{}'::json, queue_name => ${FILE_GC_TASK}, run_at => now(), job_key => ${FILE_GC_TASK}, job_key_mode => 'replace', max_attempts => 1)`;
  await until('the old bytes collected', async () => !(await store.backend.has(old)));
  const logged = await until('the collection logged', async () => {
    const all = [...collections(a.lines), ...collections(b.lines)];
    return all.length > 0 && all;
  });
  expect(logged).toHaveLength(1);
  expect(logged[0]).toMatchObject({ store: 'postgres', deleted: 1 });
  expect(logged[0].scanned).toBeGreaterThanOrEqual(2);
  expect(await store.backend.has(fresh)).toBe(true);

  // The next run: one job, an interval (6 h) away.
  const next = await until('the next run queued', async () => {
    const jobs = await queued();
    return jobs.length === 1 && !jobs[0]!.locked && jobs[0]!.runInSeconds > 60 && jobs;
  });
  expect(next[0]!.runInSeconds).toBeGreaterThan(6 * HOUR / 1000 - 120);
  expect(next[0]!.runInSeconds).toBeLessThanOrEqual(6 * HOUR / 1000);
  // Counted as scheduled, not as jobs waiting for a worker: this and the three other recurring tasks.
  const metrics = await createMetrics({ db }).registry.metrics();
  expect(metrics).toContain('quire_jobs{state="scheduled"} 4');
  expect(metrics).toContain('quire_jobs{state="ready"} 0');
});

it('takes the collection off the queue when QUIRE_FILE_GC_INTERVAL_HOURS is 0', async () => {
  await instance({ QUIRE_FILE_GC_INTERVAL_HOURS: '24' });
  expect(await queued()).toHaveLength(1);
  await instance({ QUIRE_FILE_GC_INTERVAL_HOURS: '0' });
  expect(await queued()).toHaveLength(0);
});
