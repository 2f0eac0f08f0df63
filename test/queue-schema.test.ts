/**
 * The job queue's schema (db/queue-schema.ts): a start reads the installed version with one query
 * and loads graphile-worker only when it must migrate (docs/performance.md, Memory). Its version
 * constant must be graphile-worker's last migration, or every start would run graphile-worker's
 * migrations (a newer schema) or skip one it needs (an older constant).
 */
import { createRequire } from 'node:module';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedQueueVersion, migrateQueue, QUEUE_SCHEMA_VERSION } from '../src/db/queue-schema.js';
import { ownDatabase } from './helpers/processes.js';
import { testDatabaseUrl } from './helpers/database-url.js';

let database: Awaited<ReturnType<typeof ownDatabase>>;
beforeAll(async () => {
  database = await ownDatabase(testDatabaseUrl(), 'quire_queue_schema');
}, 60_000);
afterAll(async () => database?.drop());

async function sql(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  await client.query(text).finally(() => client.end());
}

describe('queue schema', () => {
  it("is graphile-worker's last migration", () => {
    const { migrations } = createRequire(import.meta.url)('graphile-worker/dist/generated/sql.js') as { migrations: Record<string, string> };
    const last = Math.max(...Object.keys(migrations).map((file) => parseInt(file.slice(0, 6), 10)));
    expect(QUEUE_SCHEMA_VERSION).toBe(last);
  });

  it('is read from the database, and installed when missing', async () => {
    expect(await installedQueueVersion(database.url)).toBe(QUEUE_SCHEMA_VERSION);
    await sql('DROP SCHEMA graphile_worker CASCADE');
    expect(await installedQueueVersion(database.url)).toBeNull();
    await migrateQueue(database.url);
    expect(await installedQueueVersion(database.url)).toBe(QUEUE_SCHEMA_VERSION);
  }, 60_000);
});
