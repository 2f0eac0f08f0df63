/**
 * Prisma's own schema engine, run as WebAssembly over a PostgreSQL driver adapter.
 *
 * The Prisma 7 CLI always spawns a native schema engine that it downloads on first use;
 * quire must migrate with no network, so it drives the same engine compiled to WASM
 * (`@prisma/schema-engine-wasm`) directly. This module owns the workarounds that needs:
 * PostgreSQL `"char"` columns (oid 18, seen in catalog introspection) are relabelled as text,
 * which adapter-pg otherwise rejects; migration scripts are sent whole (adapter-pg splits them
 * on every `;`, which breaks function bodies and runs each statement in its own transaction);
 * and shadow databases are created and dropped here (adapter-pg's own factory reuses the main
 * database when given a connection string).
 */
import { randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SchemaEngine, MigrationList } from '@prisma/schema-engine-wasm';
import { createRequire } from 'node:module';

export const PRISMA_DIR = path.resolve(import.meta.dirname, '../../prisma');
export const SCHEMA_PATH = path.join(PRISMA_DIR, 'schema.prisma');
export const MIGRATIONS_DIR = path.join(PRISMA_DIR, 'migrations');

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

type Queryable = {
  client: { query(sql: string): Promise<unknown> };
  onError(error: unknown): never;
  performIO(query: unknown): Promise<{ fields: { dataTypeID: number }[] }>;
  executeScript?(script: string): Promise<void>;
  startTransaction?(...args: unknown[]): Promise<Queryable>;
};

/**
 * Makes adapter-pg read `"char"` columns as text and run a script as one multi-statement query
 * (PostgreSQL runs it in one implicit transaction: a failing migration leaves nothing behind).
 * Applies to transactions it opens too.
 */
function adaptQueryable<T>(queryable: T): T {
  const target = queryable as unknown as Queryable;
  if (target.executeScript) {
    target.executeScript = async (script) => {
      await target.client.query(script).catch((error: unknown) => target.onError(error));
    };
  }
  const performIO = target.performIO.bind(target);
  target.performIO = async (query) => {
    const result = await performIO(query);
    for (const field of result.fields) if (field.dataTypeID === PG_CHAR_OID) field.dataTypeID = PG_TEXT_OID;
    return result;
  };
  const startTransaction = target.startTransaction?.bind(target);
  if (startTransaction) target.startTransaction = async (...args) => adaptQueryable(await startTransaction(...args));
  return queryable;
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** A migration-aware adapter factory whose shadow databases are dropped by `dropShadows`. */
function adapterFactory(url: string) {
  const shadows: string[] = [];
  const factory = {
    adapterName: '@prisma/adapter-pg',
    provider: 'postgres' as const,
    connect: async () => adaptQueryable(await new PrismaPg({ connectionString: url }).connect()),
    connectToShadowDb: async () => {
      const name = `quire_shadow_${randomUUID().replaceAll('-', '')}`;
      await adminQuery(url, `CREATE DATABASE "${name}"`);
      shadows.push(name);
      return adaptQueryable(await new PrismaPg({ connectionString: withDatabase(url, name) }).connect());
    },
  };
  const dropShadows = async () => {
    for (const name of shadows.splice(0)) await adminQuery(url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  };
  return { factory: bindMigrationAwareSqlAdapterFactory(factory as never), dropShadows };
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function readSchema(): Promise<string> {
  return readFile(SCHEMA_PATH, 'utf8');
}

/** Loads `prisma/migrations` the way the Prisma CLI does. */
export async function readMigrations(): Promise<MigrationList> {
  const entries = await readdir(MIGRATIONS_DIR, { withFileTypes: true }).catch(() => []);
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const lockPath = path.join(MIGRATIONS_DIR, 'migration_lock.toml');
  return {
    baseDir: MIGRATIONS_DIR,
    lockfile: { path: lockPath, content: await readFile(lockPath, 'utf8').catch(() => null) },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      dirs.map(async (name) => {
        const file = path.join(MIGRATIONS_DIR, name, 'migration.sql');
        const content = await readFile(file, 'utf8')
          .then((value) => ({ tag: 'ok' as const, value }))
          .catch((e: Error) => ({ tag: 'error' as const, value: e.message }));
        return { path: name, migrationFile: { path: file, content } };
      }),
    ),
  };
}

let engineClass: Promise<typeof SchemaEngine> | undefined;

/** The package targets bundlers (it imports its .wasm as a module); Node needs it instantiated by hand. */
function loadSchemaEngine(): Promise<typeof SchemaEngine> {
  engineClass ??= (async () => {
    const glue = await import('@prisma/schema-engine-wasm/schema_engine_bg');
    const glueFile = createRequire(import.meta.url).resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const wasmPath = path.join(path.dirname(glueFile), 'schema_engine_bg.wasm');
    const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), { './schema_engine_bg.js': glue as never });
    (glue as unknown as { __wbg_set_wasm(w: unknown): void }).__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue.SchemaEngine;
  })();
  return engineClass;
}

const NO_FILTERS = { externalTables: [], externalEnums: [] };

/** Runs `fn` with a schema engine bound to `url`, cleaning up connections and shadow databases. */
export async function withSchemaEngine<T>(url: string, fn: (engine: SchemaEngine, schema: string) => Promise<T>): Promise<T> {
  const schema = await readSchema();
  const { factory, dropShadows } = adapterFactory(url);
  const log = (line: string) => {
    if (process.env.QUIRE_DEBUG_MIGRATIONS) process.stderr.write(`${line}\n`);
  };
  const engine = await (await loadSchemaEngine()).new({ datamodels: [[SCHEMA_PATH, schema]] }, log, factory);
  try {
    return await fn(engine, schema);
  } finally {
    engine.free();
    await dropShadows();
  }
}

/**
 * Serializes migrations across processes: instances starting together on an empty database wait
 * for each other here (as long as it takes) instead of failing after the schema engine's own 10 s
 * wait for its lock. A key of our own: holding Prisma's would make the engine time out on it.
 */
const MIGRATION_LOCK_KEY = 0x71756972; // 'quir'

async function underMigrationLock<T>(url: string, onWait: () => void, fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {}); // a broken lock connection fails the query below, not the process
  await client.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK_KEY]);
    if (!rows[0].locked) {
      onWait();
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    }
    return await fn();
  } finally {
    await client.end(); // ending the session releases the lock
  }
}

/** Applies pending migrations; returns the names applied (empty when up to date). */
export async function applyMigrations(url: string, opts: { onWait?: () => void } = {}): Promise<string[]> {
  return underMigrationLock(url, opts.onWait ?? (() => {}), () =>
    withSchemaEngine(url, async (engine) => {
      const out = await engine.applyMigrations({ migrationsList: await readMigrations(), filters: NO_FILTERS });
      return out.appliedMigrationNames;
    }),
  );
}

/** SQL that would bring the migrations up to `schema.prisma`; empty when they agree. */
export async function diffMigrationsToSchema(url: string): Promise<string> {
  return withSchemaEngine(url, async (engine, schema) => {
    const result = await engine.diff({
      from: { tag: 'migrations', ...(await readMigrations()) },
      to: { tag: 'schemaDatamodel', files: [{ path: SCHEMA_PATH, content: schema }] },
      script: true,
      exitCode: null,
      filters: NO_FILTERS,
    });
    const migrations = (await readMigrations()).migrationDirectories.map((d) => (d.migrationFile.content.tag === 'ok' ? d.migrationFile.content.value : ''));
    return withoutSameIndexRecreated((result.stdout ?? '').replace(/^-- This is an empty migration\.\s*$/m, ''), migrations.join('\n')).trim();
  });
}

/**
 * The diff without the `DROP INDEX x` + `CREATE INDEX x …` pairs whose CREATE a migration already
 * runs word for word. Prisma cannot compare a GIN index on a text column (btree_gin's default
 * `text_ops`): read back from the database it has no operator class, declared it needs
 * `raw("text_ops")` (the schema parser rejects it without), so it always proposes to rebuild the
 * same index (`SearchSection_spaceId_tsv_idx`). Nor can it declare an index's INCLUDE columns: a
 * migration's CREATE that adds them to the proposed one word for word is the same index too
 * (`SearchSection_spaceId_pageId_id_idx`).
 */
function withoutSameIndexRecreated(diff: string, migrations: string): string {
  const pair = /-- DropIndex\s*DROP INDEX "([^"]+)";\s*/g;
  let out = diff;
  for (const [drop, name] of diff.matchAll(pair)) {
    const create = new RegExp(`-- CreateIndex\\s*(CREATE (?:UNIQUE )?INDEX "${name}" [^;]*;)\\s*`).exec(out);
    const same = create && (migrations.includes(create[1]) || migrations.includes(`${create[1].slice(0, -1)} INCLUDE (`));
    if (same) out = out.replace(drop, '').replace(create[0], '');
  }
  return out;
}

/** Writes nothing; returns a generated migration name and script for `schema.prisma`, or null when none is needed. */
export async function draftMigration(url: string, name: string) {
  return withSchemaEngine(url, async (engine, schema) => {
    const out = await engine.createMigration({
      draft: false,
      migrationName: name,
      migrationsList: await readMigrations(),
      schema: { files: [{ path: SCHEMA_PATH, content: schema }] },
      filters: NO_FILTERS,
    });
    return out.migrationScript ? { name: out.generatedMigrationName, script: out.migrationScript } : null;
  });
}
