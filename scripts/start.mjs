// `npm start`: build the API bundle, the admin and the portal when missing or older than their
// sources, then run the API (which migrates, seeds and serves everything on one port).
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';

const root = resolve(fileURLToPath(import.meta.url), '../..');

await buildIfStale();

const api = spawnSync(process.execPath, ['--enable-source-maps', join(root, 'api/dist/index.js')], { cwd: root, stdio: 'inherit' });
process.exit(api.status ?? 0);
