/** Before any journey: build the API bundle, admin and portal when older than their sources (as `npm start` does). */
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export default function globalSetup() {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const r = spawnSync(process.execPath, [resolve(root, 'scripts/build-if-stale.mjs')], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`build-if-stale failed with exit ${r.status}`);
}
