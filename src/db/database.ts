/** Opens the configured database (external or embedded), migrated and ready for a Prisma client. */
import pg from 'pg';
import type { Config } from '../config.js';
import { createPrismaClient, type Db, type QueryListener } from './client.js';
import { startEmbeddedPostgres } from './embedded.js';
import type { Logger } from '../observability/logger.js';
import { migrateQueue } from './queue-schema.js';
import { applyMigrations, readMigrations } from './schema-engine.js';

/** `failed()`: the database this process itself runs (the embedded one) is gone for good. */
export type Database = { url: string; db: Db; close(): Promise<void>; failed(): boolean };

/**
 * The database URL to use: DATABASE_URL, or the embedded PostgreSQL — started for this process,
 * or shared with the quire process already running it on the same data directory (which alone
 * stops it). `progress` hears one line per step.
 */
export async function resolveDatabaseUrl(config: Config, progress: (line: string) => void = () => {}) {
  if (config.databaseUrl) return { url: checkDatabaseUrl(config.databaseUrl), stop: async () => {}, failed: () => false };
  progress(`starting the embedded PostgreSQL in ${config.dataDir}`);
  const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort, notice: progress });
  progress(embedded.owned ? `embedded PostgreSQL ready on 127.0.0.1:${embedded.port}` : `using the embedded PostgreSQL another quire process runs on 127.0.0.1:${embedded.port}`);
  return embedded;
}

/** DATABASE_URL, refused in one line naming it unless it is a PostgreSQL URL. */
function checkDatabaseUrl(url: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    // reported below
  }
  if (!parsed || !['postgres:', 'postgresql:'].includes(parsed.protocol) || !parsed.hostname) {
    throw new Error('DATABASE_URL is not a PostgreSQL URL (expected postgresql://user:password@host:5432/database)');
  }
  return url;
}

/** Where DATABASE_URL points, without its password, for messages. */
function shownUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
}

/**
 * One connection to DATABASE_URL before anything else, so that a wrong or unreachable one fails
 * in one line naming it (the driver's own message: refused, unknown host, authentication…).
 */
async function reach(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: REACH_TIMEOUT_MS });
  client.on('error', () => {}); // a connection lost after the check is not this check's concern
  try {
    await client.connect();
  } catch (error) {
    const reason = (error as Error).message || (error as NodeJS.ErrnoException).code || 'no answer';
    throw new Error(`DATABASE_URL: cannot connect to ${shownUrl(url)}: ${reason}`);
  } finally {
    await client.end().catch(() => {});
  }
}

const REACH_TIMEOUT_MS = 10_000;

export async function openDatabase(
  config: Config,
  opts: { migrate?: boolean; onQuery?: QueryListener; progress?: (line: string) => void; logger?: Logger } = {},
): Promise<Database> {
  const progress = opts.progress ?? (() => {});
  const server = await resolveDatabaseUrl(config, progress);
  if (config.databaseUrl) await reach(server.url);
  const logger = opts.logger;
  const onQuery = opts.onQuery ?? (config.logSql ? (sql: string) => (logger ? logger.info({ sql }, 'sql') : console.error(`[sql] ${sql}`)) : undefined);
  const onConnectionLost = logger ? (error: Error) => logger.warn({ err: { message: error.message } }, 'database connection lost') : undefined;
  const db = createPrismaClient(server.url, { poolMax: config.dbPoolMax, onQuery, preparedStatements: config.dbPreparedStatements, onConnectionLost, statementTimeoutMs: config.dbStatementTimeoutMs });
  try {
    if (opts.migrate !== false) {
      // The schema engine takes seconds to load: it runs only when a migration is missing (no
      // migrations table yet counts as missing).
      const current = await isMigrated(db).catch(() => false);
      const applied = current ? [] : await applyMigrations(server.url, { onWait: () => progress('waiting for another instance to finish migrating') });
      progress(applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'database schema is up to date');
      await migrateQueue(server.url);
    }
    return {
      url: server.url,
      db,
      failed: server.failed,
      close: async () => {
        await db.$disconnect();
        await server.stop();
      },
    };
  } catch (error) {
    await db.$disconnect();
    await server.stop();
    throw error;
  }
}

/** True when every migration in prisma/migrations has been applied successfully. */
export async function isMigrated(db: Db): Promise<boolean> {
  const expected = (await readMigrations()).migrationDirectories.map((m) => m.path);
  const rows = await db.$queryRawUnsafe<{ migration_name: string }[]>(
    'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
  );
  const applied = new Set(rows.map((r) => r.migration_name));
  return expected.every((name) => applied.has(name));
}
