// `npm start`: build the API bundle, the admin and the portal when missing or older than their
// sources, then run the API (which migrates, seeds and serves everything on one port).
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';

const root = resolve(fileURLToPath(import.meta.url), '../..');

await buildIfStale();

const api = spawn(process.execPath, ['--enable-source-maps', join(root, 'api/dist/index.js')], { cwd: root, stdio: 'inherit' });
// A SIGTERM sent to this process alone (a process manager, `kill`) reaches the API, which drains its
// workers; Ctrl-C reaches both anyway, and the API's handler ignores the second signal.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => api.kill(signal));
api.on('exit', (code) => process.exit(code ?? 0));
