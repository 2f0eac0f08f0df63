import { inject } from 'vitest';

/**
 * This test worker's database. Each worker has one of its own (global-setup.ts makes one per
 * worker, vitest.config.ts): test files run side by side (`--maxWorkers=2`) share no job queue (a
 * runner with another file's settings would otherwise run this file's jobs), no outbox and no
 * table, as when they run one after another.
 */
export function testDatabaseUrl(): string {
  const urls = inject('databaseUrls');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  return urls[(Math.max(1, worker) - 1) % urls.length]!;
}
