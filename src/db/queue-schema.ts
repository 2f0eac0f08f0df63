/**
 * The job queue's own tables (graphile-worker's `graphile_worker` schema), installed and upgraded
 * by graphile-worker itself. Every process that starts jobs needs them, not only the workers: a
 * job is queued by the request that asks for it (domain/jobs/enqueue.ts).
 */
import { Logger, runMigrations } from 'graphile-worker';

const quiet = new Logger(() => () => {});

export async function migrateQueue(url: string): Promise<void> {
  await runMigrations({ connectionString: url, logger: quiet });
}
