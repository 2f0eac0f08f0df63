import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two test files at a time, whatever the machine: the concurrency CI proves. They wait on the
    // database, child processes and local servers more than they compute, so two take about two
    // thirds of the time even on two cores. Each worker has a database of its own (test/global-setup.ts): files
    // side by side share no job queue or outbox (a job runner started with one file's settings
    // would otherwise run another file's jobs). `--maxWorkers=1` runs them one by one.
    maxWorkers: 2,
    minWorkers: 1,
  },
});
