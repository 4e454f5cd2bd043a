import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Child-process tests and MariaDB suites share two cores; more workers only add contention.
    maxWorkers: 2,
  },
});
