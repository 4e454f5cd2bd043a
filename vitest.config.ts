import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // A worker keeps its loaded modules from one test file to the next: importing the app anew for each
    // file took 239 s summed over the files. Tests share no state through modules: each builds its own
    // services and app, and one that changes something process-wide (the dev flag, a global) restores it.
    isolate: false,
    // Generous: on a loaded two-core machine a real process start or a spoken sentence can take many seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Child-process tests and MariaDB suites share two cores; more workers only add contention.
    maxWorkers: 2,
  },
});
