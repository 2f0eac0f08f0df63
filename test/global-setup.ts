/**
 * Test database: DATABASE_URL when set (a fresh database is created beside it), otherwise the
 * embedded PostgreSQL (data under .quire/test). Migrations are applied once; every test then
 * works in an organization of its own.
 */
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureDatabase, startEmbeddedPostgres } from '../src/db/embedded.js';
import { applyMigrations } from '../src/db/schema-engine.js';
import { migrateQueue } from '../src/db/queue-schema.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  let url: string;
  let stop = async () => {};
  if (process.env.DATABASE_URL) {
    url = process.env.DATABASE_URL;
    const admin = new URL(url);
    const name = admin.pathname.slice(1) || 'quire_test';
    admin.pathname = '/postgres';
    await ensureDatabase(admin.toString(), name);
  } else {
    const embedded = await startEmbeddedPostgres({ dataDir: path.resolve('.quire/test') });
    url = embedded.url;
    stop = embedded.stop;
  }
  await applyMigrations(url);
  await migrateQueue(url);
  project.provide('databaseUrl', url);
  return stop;
}
