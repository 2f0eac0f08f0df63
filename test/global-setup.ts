/**
 * Test databases: beside DATABASE_URL when set (fresh databases are created next to it), otherwise
 * on the embedded PostgreSQL (data under .quire/test). One database per concurrent test worker
 * (vitest.config.ts's maxWorkers): the first is DATABASE_URL's own, the others add `_2`, `_3`…
 * (see helpers/database-url.ts). Migrations are applied once to each; every test then works in an
 * organization of its own.
 */
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureDatabase, startEmbeddedPostgres } from '../src/db/embedded.js';
import { applyMigrations } from '../src/db/schema-engine.js';
import { migrateQueue } from '../src/db/queue-schema.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One database per test worker, in the order of VITEST_POOL_ID. */
    databaseUrls: string[];
  }
}

export default async function setup(project: TestProject) {
  let url: string;
  let stop = async () => {};
  if (process.env.DATABASE_URL) {
    url = process.env.DATABASE_URL;
  } else {
    const embedded = await startEmbeddedPostgres({ dataDir: path.resolve('.quire/test') });
    url = embedded.url;
    stop = embedded.stop;
  }
  const first = new URL(url);
  const name = first.pathname.slice(1) || 'quire_test';
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const workers = Math.max(1, project.config.maxWorkers ?? 1);
  const urls: string[] = [];
  for (let worker = 1; worker <= workers; worker++) {
    const database = worker === 1 ? name : `${name}_${worker}`;
    await ensureDatabase(admin.toString(), database);
    const workerUrl = new URL(url);
    workerUrl.pathname = `/${database}`;
    await applyMigrations(workerUrl.href);
    await migrateQueue(workerUrl.href);
    urls.push(workerUrl.href);
  }
  project.provide('databaseUrls', urls);
  return stop;
}
