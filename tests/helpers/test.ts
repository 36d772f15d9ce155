/**
 * Playwright's `test` with one server per worker: each worker starts the real API (the built bundle,
 * admin and portal, its own freshly seeded SQLite file) on E2E_PORT + its parallel index and points
 * `baseURL` at it. Journeys in different workers never see each other's writes, so the suite
 * runs two journeys at a time without one journey's data pushing another's off a page.
 * With E2E_DATABASE=pg each server gets a fresh PostgreSQL database instead (helpers/postgres.ts).
 */
import { test as base } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDatabase, onPostgres } from './postgres';

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

/**
 * Starts the real API on `port` with a freshly seeded database of its own (the bundle `npm start`
 * runs: api/dist, built by global-setup.ts when older than the sources): a SQLite file, or with
 * E2E_DATABASE=pg an empty database of the run's cluster that the API migrates and seeds. `env`
 * adds to its environment. `stop` ends it and removes its folder (a PostgreSQL database goes with the cluster).
 */
export async function startServer(port: number, env: Record<string, string> = {}): Promise<{ url: string; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'doanhoi-e2e-'));
  // On PostgreSQL the temporary folder still holds the secret files the API keeps beside DATABASE_PATH.
  const database = onPostgres ? { DATABASE_URL: await freshDatabase() } : {};
  const child = spawn(process.execPath, ['--enable-source-maps', resolve(root, 'api/dist/index.js')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_PATH: join(dir, 'app.db'),
      ...database,
      ADMIN_PASSWORD: 'admin123',
      SEED_DEMO: 'true',
      LOGIN_RATE_LIMIT: '1000',
      // One API process per journey server unless a spec asks for a cluster (test.use({ serverEnv })):
      // the default would be one per core, on a machine already running a server per Playwright worker.
      // E2E_WEB_CONCURRENCY=2 runs the whole suite against two processes, to catch state one process kept to itself.
      WEB_CONCURRENCY: process.env.E2E_WEB_CONCURRENCY ?? '1',
      // Request lines would flood the test output; warnings and errors still show.
      LOG_LEVEL: 'warn',
      ...env,
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
  const stop = async () => {
    child.kill();
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `http://localhost:${port}`;
  try {
    await waitUntilUp(`${url}/api/docs`, child, () => log);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}

/** A port for a server a journey starts itself, clear of the workers' (E2E_PORT + worker index). */
export const journeyPort = (parallelIndex: number) => BASE_PORT + 50 + parallelIndex;

export const test = base.extend<object, { server: { url: string }; serverEnv: Record<string, string> }>({
  /** Added to the worker's server environment, e.g. `test.use({ serverEnv: { WEB_CONCURRENCY: '2' } })` (a worker of its own). */
  serverEnv: [{}, { option: true, scope: 'worker' }],
  server: [
    async ({ serverEnv }, use, workerInfo) => {
      const server = await startServer(BASE_PORT + workerInfo.parallelIndex, serverEnv);
      try {
        await use({ url: server.url });
      } finally {
        await server.stop();
      }
    },
    { scope: 'worker', timeout: 150_000 },
  ],
  baseURL: async ({ server }, use) => use(server.url),
});
