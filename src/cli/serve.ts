import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { startWorker } from '../jobs/worker.js';

export async function serve(config: Config): Promise<void> {
  if (!config.databaseUrl) console.log(`[quire] no DATABASE_URL: starting the embedded PostgreSQL in ${config.dataDir}`);
  const database = await openDatabase(config);
  const worker = config.runWorker ? await startWorker(database.url, database.db) : undefined;
  const app = buildApp({ db: database.db, config });
  let url: string;
  try {
    ({ url } = await app.start());
  } catch (error) {
    // Nothing may keep running: the worker, the pool and an embedded PostgreSQL stop before exiting.
    await app.stop();
    await worker?.stop();
    await database.close();
    throw error;
  }
  console.log(`[quire] GraphQL and GraphiQL at ${url}/graphql, REST at ${url}/v1`);

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log('[quire] shutting down');
    await app.stop();
    await worker?.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
