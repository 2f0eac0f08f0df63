/**
 * The job queue's own tables (graphile-worker's `graphile_worker` schema), installed and upgraded
 * by graphile-worker itself. Every process that starts jobs needs them, not only the workers: a
 * job is queued by the request that asks for it (domain/jobs/enqueue.ts).
 *
 * graphile-worker (with graphile-config, cosmiconfig, yaml, json5: ~1.5 MiB of heap) is loaded
 * only when the installed schema is not the one it installs: a server that runs no job runner
 * (`QUIRE_RUN_WORKER=false`) then starts without it (docs/performance.md, Memory).
 */
import pg from 'pg';

/**
 * The last migration of the graphile-worker quire depends on (the highest key of its
 * `dist/generated/sql.js`); test/queue-schema.test.ts fails when an upgrade brings another one.
 */
export const QUEUE_SCHEMA_VERSION = 18;

export async function migrateQueue(url: string): Promise<void> {
  if ((await installedQueueVersion(url)) === QUEUE_SCHEMA_VERSION) return;
  // Missing, older, or newer (graphile-worker warns, or refuses a breaking migration it does not know).
  const { Logger, runMigrations } = await import('graphile-worker');
  await runMigrations({ connectionString: url, logger: new Logger(() => () => {}) });
}

/** The queue schema's last migration, null before graphile-worker installed it. */
export async function installedQueueVersion(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: number | null }>('SELECT max(id) AS id FROM graphile_worker.migrations');
    return rows[0]?.id ?? null;
  } catch (error) {
    if ((error as { code?: string }).code === '42P01') return null; // undefined_table: not installed
    throw error;
  } finally {
    await client.end();
  }
}
