import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Generous: on a loaded two-core machine a real process start or a spoken sentence can take many seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Child-process tests and MariaDB suites share two cores; more workers only add contention.
    maxWorkers: 2,
  },
});
