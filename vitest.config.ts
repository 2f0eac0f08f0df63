import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two test files at a time, whatever the machine: the files share one database (each works in
    // organizations of its own) and wait on it, on child processes and on local servers more than
    // they compute, so two halve the suite's time even on two cores; this is the concurrency CI
    // runs. (Vitest's default, one fewer than the CPUs, ran them one by one on a two-core machine.)
    maxWorkers: 2,
    minWorkers: 1,
  },
});
