import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { startWorker } from '../jobs/worker.js';
import { createLogger } from '../observability/logger.js';

/** Runs background jobs without serving HTTP (scale workers separately from gateways). */
export async function worker(config: Config): Promise<void> {
  const logger = createLogger({ level: config.logLevel });
  const database = await openDatabase(config, { progress: (line) => logger.info(line), logger });
  const runner = await startWorker(database.url, database.db, logger);
  logger.info('worker running');
  const shutdown = async () => {
    await runner.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await runner.promise;
}
