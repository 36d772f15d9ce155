// `npm start`: build the admin and portal when their build is missing or older than their sources,
// then run the API (which migrates, seeds and serves everything on one port).
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';

const root = resolve(fileURLToPath(import.meta.url), '../..');

buildIfStale();

const api = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'api/src/index.ts')], { cwd: root, stdio: 'inherit' });
process.exit(api.status ?? 0);
