/**
 * Playwright's `test` with one server per worker: each worker starts the real API (the built bundle,
 * admin and portal, its own freshly seeded SQLite file) on E2E_PORT + its parallel index and points
 * `baseURL` at it. Journeys in different workers never see each other's writes, so the suite
 * runs two spec files at a time without one journey's data pushing another's off a page.
 */
import { test as base } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export * from '@playwright/test';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BASE_PORT = Number(process.env.E2E_PORT ?? 3399);

async function waitUntilUp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`e2e server exited with ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`e2e server did not answer ${url} within 120 s:\n${output()}`);
}

export const test = base.extend<object, { server: { url: string }; serverEnv: Record<string, string> }>({
  /** Extra environment for this worker's server (`test.use({ serverEnv })` gives a spec its own server). */
  serverEnv: [{}, { scope: 'worker', option: true }],
  server: [
    async ({ serverEnv }, use, workerInfo) => {
      const port = BASE_PORT + workerInfo.parallelIndex;
      const dir = mkdtempSync(join(tmpdir(), 'doanhoi-e2e-'));
      // The bundle `npm start` runs (api/dist, built by global-setup.ts when older than the sources).
      const child = spawn(process.execPath, ['--enable-source-maps', resolve(root, 'api/dist/index.js')], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          PORT: String(port),
          DATABASE_PATH: join(dir, 'app.db'),
          ADMIN_PASSWORD: 'admin123',
          SEED_DEMO: 'true',
          LOGIN_RATE_LIMIT: '1000',
          // Request lines would flood the test output; warnings and errors still show.
          LOG_LEVEL: 'warn',
          ...serverEnv,
        },
      });
      let log = '';
      const keep = (b: Buffer) => {
        log = (log + b.toString()).slice(-20_000);
      };
      child.stdout!.on('data', keep);
      child.stderr!.on('data', (b: Buffer) => {
        keep(b);
        process.stderr.write(b);
      });
      const url = `http://localhost:${port}`;
      try {
        await waitUntilUp(`${url}/api/docs`, child, () => log);
        await use({ url });
      } finally {
        child.kill();
        await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
        rmSync(dir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 150_000 },
  ],
  baseURL: async ({ server }, use) => use(server.url),
});
