import { defineConfig } from '@playwright/test';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

export default defineConfig({
  testDir: './e2e',
  globalSetup: './global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Each worker starts its own server and database (helpers/test.ts), on E2E_PORT + its index.
  // One worker per core: once toasts stopped blocking clicks, a journey spends much of its time
  // waiting on the other processes, and two workers on this 2-core machine took 357 s against 428 s.
  // Journeys, not files, are shared out: a long file no longer leaves one core idle at the end.
  // A file whose journeys share a beforeAll runs in order in one worker (mode 'default').
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? availableParallelism()),
  retries: 0,
  // Each journey with its time, in CI too: the slow ones are where the suite's minutes go.
  reporter: 'list',
  outputDir: join(tmpdir(), 'doanhoi-e2e-results'),
  use: {
    locale: 'vi-VN',
    timezoneId: 'Asia/Ho_Chi_Minh',
    // The admin then turns antd's animations off: no dialog is clicked while it is still opening.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    headless: true,
    screenshot: 'only-on-failure',
  },
});
