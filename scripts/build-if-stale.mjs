// Builds the admin and portal only when their build is missing or older than their sources, page, Vite
// config or package.json (or shared/), so `npm start` and `npm run test:e2e` skip the ~1–2 minute
// Vite builds when nothing changed; and the API bundle (api/dist, scripts/build-api.mjs, half a second)
// the same way.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApi } from './build-api.mjs';

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

/** `output` is missing or older than the app's sources, shared/, its page, configs and package.json, or `extra` files. */
function stale(app, output = 'dist/index.html', extra = []) {
  const index = join(root, app, output);
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  const files = [...['index.html', 'vite.config.ts', 'package.json'].map((f) => join(root, app, f)), ...extra.map((f) => join(root, f))];
  const sources = Math.max(
    newest(join(root, app, 'src')),
    newest(join(root, 'shared/src')),
    ...files.map((f) => (existsSync(f) ? statSync(f).mtimeMs : 0)),
  );
  return sources > built;
}

export async function buildIfStale() {
  if (stale('api', 'dist/index.js', ['scripts/build-api.mjs'])) {
    console.log('Building api…');
    await buildApi();
  }
  for (const app of ['admin', 'portal']) {
    if (!stale(app, undefined, ['scripts/vite-precompress.ts', ...(app === 'admin' ? ['admin/vite-antd-styles.ts'] : [])])) continue;
    console.log(`Building ${app}…`);
    const r = spawnSync('npm', ['run', 'build', '-w', app], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildIfStale();
