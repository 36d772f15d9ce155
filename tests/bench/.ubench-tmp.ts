import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { generateBenchDb } from './generate';
import { load, printTable, startProcess } from './load';
const root = resolve(import.meta.dirname, '../..');
const dbPath = '/tmp/ubench/bench.db';
const APP_PORT = 3591, BARE_PORT = 3592;
if (!existsSync(dbPath)) { const t = Date.now(); await generateBenchDb(dbPath); console.log('gen', (Date.now()-t)/1000); }
const env = { PORT: String(APP_PORT), HOST: '127.0.0.1', DATABASE_PATH: dbPath, JWT_SECRET: 'bench-jwt-secret-000000', APP_SECRET: 'bench-app-secret-000000', SEED_DEMO: 'false', LOGIN_RATE_LIMIT: '100000' };
const app = await startProcess([join(root, 'api/src/index.ts')], env, `http://127.0.0.1:${APP_PORT}/api/docs`);
const bare = await startProcess([join(import.meta.dirname, 'bare-server.ts')], { PORT: String(BARE_PORT) }, `http://127.0.0.1:${BARE_PORT}/bare`);
try {
  const login = await fetch(`http://127.0.0.1:${APP_PORT}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@doanhoi.local', password: 'admin123' }) }).then((r) => r.json() as any);
  const auth = { authorization: `Bearer ${login.accessToken}` };
  const base = `http://127.0.0.1:${APP_PORT}/api`;
  const paths = (process.env.PATHS ?? '/users?page=1&limit=10,/users?page=500&limit=10,/users?search=nguyen%20van&page=1').split(',');
  const rows: any[] = [await load('bare', `http://127.0.0.1:${BARE_PORT}/bare`)];
  for (const p of paths) {
    const probe = await fetch(base + p, { headers: auth }); const txt = await probe.text();
    console.log(p, probe.status, txt.slice(0, 200));
    const r = await load(p, base + p, auth);
    rows.push({ ...r, ratio: r.rps / rows[0].rps });
  }
  printTable(rows);
} finally { app.kill(); bare.kill(); }
