import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { startWorker } from '../jobs/worker.js';

/** Runs background jobs without serving HTTP (scale workers separately from gateways). */
export async function worker(config: Config): Promise<void> {
  const database = await openDatabase(config);
  const runner = await startWorker(database.url, database.db);
  console.log('[quire] worker running');
  const shutdown = async () => {
    await runner.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await runner.promise;
}
