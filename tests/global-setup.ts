/**
 * Before any journey: build the API bundle, admin and portal when older than their sources (as `npm start` does).
 * With E2E_DATABASE=pg, also start the run's throwaway PostgreSQL cluster (helpers/postgres.ts), stopped after the last journey.
 */
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onPostgres, startE2ePostgres } from './helpers/postgres';

export default async function globalSetup() {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const r = spawnSync(process.execPath, [resolve(root, 'scripts/build-if-stale.mjs')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`build-if-stale failed with exit ${r.status}`);
  // Playwright runs the function global setup returns as its teardown.
  if (onPostgres) return startE2ePostgres();
}
