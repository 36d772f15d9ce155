import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/src/**/*.test.ts', 'api/src/**/*.test.ts', 'admin/src/**/*.test.{ts,tsx}', 'portal/src/**/*.test.{ts,tsx}'],
    environment: 'node',
    // Threads start faster than forks, and without per-file isolation a worker imports the API once
    // instead of once per test file: that import was most of the suite's time (docs/decisions.md).
    // Tests therefore must not leave globals, fake timers or module state behind (every API test
    // builds its own in-memory database, and the module caches are keyed by it). Knobs a test turns
    // go through the app's env (makeTestApp overrides), never through a module's exported object:
    // the sandbox's webhook delay was one (set to 50 ms by one suite, it stayed so for the next).
    pool: 'threads',
    poolOptions: { threads: { isolate: false }, forks: { isolate: true } },
    // An imports test still saw a 400 upload about once in three full runs after other files had
    // run in its worker (never within its folder, 12 runs): until that leak is found they run isolated.
    // Issue 27: two runs of the imports tests in shared threads among 77 other API files (files shuffled)
    // passed, which does not rule out a 1-in-3 leak, so forks stay. Isolation costs them seconds, not
    // correctness; drop this line once a few full `npm test` runs without it pass.
    poolMatchGlobs: [['api/src/imports/**', 'forks']],
    // Vitest leaves one core free by default: on a 2-core machine that was one worker, and the
    // suite ran file after file (119 s; 79 s with both cores).
    maxWorkers: availableParallelism(),
    testTimeout: 20_000,
    // PostgreSQL: the first test app of a worker migrates and seeds a template database.
    hookTimeout: process.env.TEST_ENGINE === 'pg' ? 60_000 : 10_000,
    // TEST_ENGINE=pg: the API suite on a throwaway PostgreSQL cluster (issue 29).
    globalSetup: ['api/src/test/pg-global-setup.ts'],
  },
});
