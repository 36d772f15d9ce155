// `npm start`: build the admin and portal when their build is missing or older than their sources,
// then run the API (which migrates, seeds and serves everything on one port).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../..');

function newest(dir) {
  if (!existsSync(dir)) return 0;
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'dist') continue;
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

function stale(app) {
  const index = join(root, app, 'dist/index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  const sources = Math.max(newest(join(root, app, 'src')), newest(join(root, 'shared/src')), statSync(join(root, app, 'index.html')).mtimeMs);
  return sources > built;
}

for (const app of ['admin', 'portal']) {
  if (!stale(app)) continue;
  console.log(`Building ${app}…`);
  const r = spawnSync('npm', ['run', 'build', '-w', app], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const api = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'api/src/index.ts')], { cwd: root, stdio: 'inherit' });
process.exit(api.status ?? 0);
