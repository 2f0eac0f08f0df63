/**
 * Test databases: beside DATABASE_URL when set (fresh databases are created next to it), otherwise
 * on the embedded PostgreSQL (data under .quire/test). One database per concurrent test worker
 * (vitest.config.ts's maxWorkers): the first is DATABASE_URL's own, the others add `_2`, `_3`…
 * (see helpers/database-url.ts). Migrations are applied once to each; every test then works in an
 * organization of its own.
 */
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { migratedDatabase } from './helpers/processes.js';

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
  const name = new URL(url).pathname.slice(1) || 'quire_test';
  const urls: string[] = [];
  for (let worker = 1; worker <= Math.max(1, project.config.maxWorkers ?? 1); worker++) {
    urls.push(await migratedDatabase(url, worker === 1 ? name : `${name}_${worker}`));
  }
  project.provide('databaseUrls', urls);
  return stop;
}
