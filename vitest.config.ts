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
    // Payments and imports tests failed after other files had run in the same worker (a 502 on the
    // first payOS call of payments/authz.test.ts, a 400 upload in imports/members-import.test.ts;
    // never alone or within their folder): until that leak is found they run isolated.
    poolMatchGlobs: [
      ['api/src/payments/**', 'forks'],
      ['api/src/imports/**', 'forks'],
    ],
    testTimeout: 20_000,
  },
});
