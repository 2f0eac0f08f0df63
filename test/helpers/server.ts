/** A real quire server on a random port of 127.0.0.1, over the test database. */
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createLogger } from '../../src/observability/logger.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createPrismaClient, type Db } from '../../src/db/client.js';
import { createEventBus, type EventBus } from '../../src/events/bus.js';
import { startWorker } from '../../src/jobs/worker.js';
import { testDatabaseUrl } from './database-url.js';

export type TestServer = { url: string; db: Db; databaseUrl: string; queries: string[]; config: Config; events: EventBus };

/**
 * Starts one server for the test file; `queries` records every SQL statement it runs. With
 * `worker`, a job runner too (its own pool, so its statements are not in `queries`), sharing the
 * server's event bus. Test files share the database, so any file's runner may run any file's
 * jobs: every runner has the same settings (imports may fetch from 127.0.0.1), and job
 * subscriptions re-read their job often, since the runner of another file publishes elsewhere.
 * `env` adds settings, read when the server starts (e.g. the URL of an SMTP server the file started).
 * `applicationName` names its database connections (`pg_stat_activity.application_name`), so a
 * file can tell its servers' connections from those of the files running beside it.
 */
export function useServer(options: { worker?: boolean; env?: () => Record<string, string>; applicationName?: string } = {}): TestServer {
  const databaseUrl = new URL(testDatabaseUrl());
  if (options.applicationName) databaseUrl.searchParams.set('application_name', options.applicationName);
  const server = { url: '', databaseUrl: databaseUrl.href, queries: [] as string[] } as TestServer;
  let stop = async () => {};
  beforeAll(async () => {
    // The rate limit has a suite of its own (rate-limit-and-cors.test.ts): elsewhere tests send as fast as they like.
    // No scheduled file garbage collection in the shared database and data directory (its own test: file-store-gc-worker.test.ts).
    const env = { PORT: '0', HOST: '127.0.0.1', QUIRE_RATE_LIMIT: '0', QUIRE_FETCH_ALLOW_PRIVATE_NETWORKS: 'true', QUIRE_JOB_STALE_SECONDS: '5', QUIRE_JOB_POLL_SECONDS: '0.2', QUIRE_FILE_GC_INTERVAL_HOURS: '0', ...options.env?.() };
    const config = { ...loadConfig(env), databaseUrl: server.databaseUrl };
    const logger = createLogger({ level: process.env.QUIRE_TEST_LOG ? 'debug' : 'silent' });
    server.config = config;
    server.db = createPrismaClient(server.databaseUrl, { poolMax: 5, onQuery: (sql) => server.queries.push(sql) });
    server.events = createEventBus({ logger });
    const workerDb = options.worker ? createPrismaClient(server.databaseUrl, { poolMax: 3 }) : undefined;
    const worker = workerDb ? await startWorker(server.databaseUrl, { db: workerDb, events: server.events, logger, config }) : undefined;
    const app = buildApp({ db: server.db, config, logger, events: server.events });
    const { port } = await app.start(0, '127.0.0.1');
    server.url = `http://127.0.0.1:${port}`;
    stop = async () => {
      await app.stop();
      await worker?.stop();
      await server.events.close();
      await workerDb?.$disconnect();
      await server.db.$disconnect();
    };
  });
  afterAll(() => stop());
  return server;
}
