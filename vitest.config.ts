import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/src/**/*.test.ts', 'api/src/**/*.test.ts', 'admin/src/**/*.test.{ts,tsx}', 'portal/src/**/*.test.{ts,tsx}'],
    environment: 'node',
    // Threads start faster than forks, and without per-file isolation a worker imports the API once
    // instead of once per test file: that import was most of the suite's time (docs/decisions.md).
    // Tests therefore must not leave globals, fake timers or module state behind (every API test
    // builds its own in-memory database, and the module caches are keyed by it).
    pool: 'threads',
    poolOptions: { threads: { isolate: false }, forks: { isolate: true } },
    // The payments authorization matrix answered 502 on its first payOS call after other files had
    // run in the same worker (twice in full runs, never alone): until that is understood it runs isolated.
    poolMatchGlobs: [['api/src/payments/authz.test.ts', 'forks']],
    testTimeout: 20_000,
  },
});
