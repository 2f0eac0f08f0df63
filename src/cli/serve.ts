/**
 * `quire serve`: the server process. It owns what it starts — the embedded PostgreSQL (unless
 * another quire process on the same data directory already runs it), the pool, the job runner —
 * and stops them in reverse order on SIGTERM or SIGINT: HTTP first (in-flight requests finish,
 * WebSockets close with 1001), then jobs, the pool, and the embedded PostgreSQL last; exit 0.
 */
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { createEventBus } from '../events/bus.js';
import { checkListen } from '../http/listen.js';
import type { startWorker as StartWorker } from '../jobs/worker.js';
import { createLogger } from '../observability/logger.js';
import { collectStartupGarbage } from '../observability/startup-collection.js';
import { startupSummary } from '../observability/startup-summary.js';

export async function serve(config: Config): Promise<void> {
  const logger = createLogger({ level: config.logLevel, format: config.logFormat });
  const summary = startupSummary(config, 'server');
  logger.info({ startup: summary.fields }, summary.message);
  const say = (line: string) => logger.info(line);
  // A taken port or a wrong HOST fails now, before the database is started or migrated.
  await checkListen(config.port, config.host);
  const database = await openDatabase(config, { progress: say, logger });
  // One event bus for the server and its job runner: job progress reaches this process's
  // subscribers directly, and other instances' through Redis when REDIS_URL is set.
  const events = createEventBus({ redisUrl: config.redisUrl, logger });
  // Imported only to run: the job handlers bring their readers (mammoth, isomorphic-git, the
  // OpenAPI parser...), which a server without its runner (QUIRE_RUN_WORKER=false) need not hold.
  const startWorker: typeof StartWorker | undefined = config.runWorker ? (await import('../jobs/worker.js')).startWorker : undefined;
  const worker = startWorker ? await startWorker(database.url, { db: database.db, events, logger, config }) : undefined;
  // Supervised (jobs/worker.ts): a database outage that stops it is followed by a restart.
  if (worker) say('job runner started');
  const app = buildApp({ db: database.db, config, logger, events, databaseFailed: database.failed });
  // Before the port opens: the start's garbage goes now, not ~100 s later (observability/startup-collection.ts).
  logger.debug({ ms: Math.round(collectStartupGarbage()) }, 'start-up garbage collected');
  let url: string;
  try {
    ({ url } = await app.start());
  } catch (error) {
    // Nothing may keep running: the worker, the pool and an embedded PostgreSQL stop before exiting.
    await app.stop({ graceMs: 0 });
    await worker?.stop();
    await events.close();
    await database.close();
    throw error;
  }
  say(`listening: GraphQL and GraphiQL at ${url}/graphql, REST at ${url}/v1`);

  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return say(`${signal} again: already stopping`);
    stopping = true;
    say(`${signal}: stopping (in-flight requests may take up to ${config.shutdownGraceMs / 1000} s)`);
    try {
      await app.stop({ graceMs: config.shutdownGraceMs });
      say('HTTP server closed');
      await worker?.stop();
      await events.close();
      await database.close();
      say('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'could not stop cleanly');
      process.exit(1);
    }
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
