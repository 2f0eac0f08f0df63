import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One test file at a time, whatever the machine: the concurrency CI proves. (Vitest's default,
    // one fewer than the CPUs, ran files side by side on larger machines, sharing one database and
    // its job queue: a job runner started with one file's settings could run another file's jobs.)
    // Each worker has a database of its own (test/global-setup.ts), so `--maxWorkers=2` runs files
    // side by side in isolation, in about half the time; under that load, health.test.ts failed
    // once: `quire serve` exited when its PostgreSQL was killed (graphile-worker's cron loop, its
    // runner stopped by the outage, rejects with nothing listening), hence one here.
    maxWorkers: 1,
    minWorkers: 1,
  },
});
