import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

const port = Number(process.env.E2E_PORT ?? 3399);
// The config is evaluated again in each worker; only the main process starts the server, so the
// database path only needs to be fresh there.
const dbDir = process.env.E2E_DB_DIR ?? (process.env.E2E_DB_DIR = mkdtempSync(join(tmpdir(), 'doanhoi-e2e-')));

export default defineConfig({
  testDir: './e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? 'line' : 'list',
  outputDir: join(tmpdir(), 'doanhoi-e2e-results'),
  use: {
    baseURL: `http://localhost:${port}`,
    locale: 'vi-VN',
    timezoneId: 'Asia/Ho_Chi_Minh',
    // The admin then turns antd's animations off: no dialog is clicked while it is still opening.
    reducedMotion: 'reduce',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
    headless: true,
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `node --import tsx ${resolve(here, '../api/src/index.ts')}`,
    cwd: resolve(here, '..'),
    url: `http://localhost:${port}/api/docs`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      DATABASE_PATH: join(dbDir, 'app.db'),
      ADMIN_PASSWORD: 'admin123',
      SEED_DEMO: 'true',
      LOGIN_RATE_LIMIT: '1000',
      // Request lines would flood the test output; warnings and errors still show.
      LOG_LEVEL: 'warn',
    },
  },
});
