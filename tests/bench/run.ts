/**
 * `npm run bench`: builds a 100k-user database, starts the real server and a bare Hono route,
 * runs the realistic mix (mix.ts: 20 admins, random requests, 0/1/10 % writes) against the bare
 * route, then loads each list route with 50 connections and prints req/s, p50, p95 and the ratio to the bare route;
 * then times the spreadsheet import (10k rows) and export (100k users) with their peak RSS.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateBenchDb } from './generate';
import { printImportExportTable, runImportExportBench } from './import-export';
import { load, printTable, startProcess, type LoadResult } from './load';
import { prepareMix, printMixes, runMixes, signIn } from './mix';
import { DASHBOARD_ADMIN, prepareDashboard } from './dashboard';
import { printPageTable, runPageBench } from './pages';
import { prepareIssue30, printIssue30, runIssue30 } from './issue30';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const dir = join(tmpdir(), 'doanhoi-bench');
const dbPath = join(dir, 'bench.db');
const APP_PORT = Number(process.env.BENCH_APP_PORT ?? 3491);
const BARE_PORT = Number(process.env.BENCH_BARE_PORT ?? 3492);

async function main() {
  if (process.env.BENCH_REUSE !== '1' || !existsSync(dbPath)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const t = Date.now();
    await generateBenchDb(dbPath);
    console.log(`generated 100,000 users / 5,000 organizations / 200 classes in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
  const admins = await prepareMix(dbPath);
  const dash = await prepareDashboard(dbPath);
  // BENCH_ONLY=issue30: issue 30's reads (tests/bench/issue30.ts); adds their data to the database once.
  const issue30 = process.env.BENCH_ONLY === 'issue30' ? prepareIssue30(dbPath, dash.campaignId) : null;
  const env = {
    PORT: String(APP_PORT),
    HOST: '127.0.0.1',
    DATABASE_PATH: dbPath,
    JWT_SECRET: 'bench-jwt-secret-000000',
    APP_SECRET: 'bench-app-secret-000000',
    SEED_DEMO: 'false',
    LOGIN_RATE_LIMIT: '100000',
    LOG_LEVEL: process.env.BENCH_SERVER_LOG ? 'info' : 'warn',
  };
  // BENCH_SERVER_LOG=<file>: the app's request log (one JSON line per request, with its service time in ms).
  const app = await startProcess(
    [join(root, 'api/dist/index.js')],
    env,
    `http://127.0.0.1:${APP_PORT}/api/docs`,
    process.env.BENCH_SERVER_LOG,
  );
  const bare = await startProcess([join(here, 'bare-server.ts')], { PORT: String(BARE_PORT) }, `http://127.0.0.1:${BARE_PORT}/bare`);
  try {
    const login = await fetch(`http://127.0.0.1:${APP_PORT}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@doanhoi.local', password: 'admin123' }),
    }).then((r) => r.json() as Promise<{ accessToken: string }>);
    const auth = { authorization: `Bearer ${login.accessToken}` };
    const base = `http://127.0.0.1:${APP_PORT}/api`;
    const facultyLogin = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(DASHBOARD_ADMIN),
    }).then((r) => r.json() as Promise<{ accessToken: string }>);
    const facultyAuth = { authorization: `Bearer ${facultyLogin.accessToken}` };
    if (issue30) {
      printIssue30(await runIssue30(APP_PORT, app.pid!, login.accessToken, dbPath, issue30));
      return;
    }
    // Dashboard figures (issue 15.1): each < 50 ms. The first request after a write computes them (printed here), the rest are cached until the next write.
    const dashboardTargets = [
      { name: 'GET /api/dashboard/members (global)', path: '/dashboard/members', headers: auth },
      { name: 'GET /api/dashboard/members?organizationId=DT', path: `/dashboard/members?organizationId=${dash.rootId}`, headers: auth },
      { name: 'GET /api/dashboard/campaigns?organizationId=DT', path: `/dashboard/campaigns?organizationId=${dash.rootId}`, headers: auth },
      { name: 'GET /api/dashboard/weekly (48k fees)', path: `/dashboard/weekly?campaignId=${dash.campaignId}`, headers: auth },
      { name: 'GET /api/dashboard/campaigns (faculty admin)', path: '/dashboard/campaigns', headers: facultyAuth },
    ];
    for (const d of dashboardTargets) {
      const t0 = performance.now();
      const res = await fetch(base + d.path, { headers: d.headers });
      console.log(`first (uncached) ${d.name}: ${res.status} in ${(performance.now() - t0).toFixed(0)} ms`);
    }

    // The headline: the realistic mix (tests/bench/mix.ts). BENCH_ONLY=mix skips the rest.
    if (!['pages', 'dashboard'].includes(process.env.BENCH_ONLY ?? '')) {
      await signIn(APP_PORT, admins);
      printMixes(await runMixes(APP_PORT, BARE_PORT, admins));
    }
    if (process.env.BENCH_ONLY === 'mix') return;
    // Page weight and speed in Chromium (issue 12); BENCH_ONLY=pages runs only this.
    if (process.env.BENCH_ONLY !== 'dashboard')
      printPageTable(await runPageBench(`http://127.0.0.1:${APP_PORT}`, { email: 'admin@doanhoi.local', password: 'admin123' }));
    if (process.env.BENCH_ONLY === 'pages') return;

    const bareResult = await load('bare Hono route', `http://127.0.0.1:${BARE_PORT}/bare`);
    // Browsers send Accept-Encoding: gzip; the tree route serves a pre-compressed body to them.
    const allTargets: {
      name: string;
      path: string;
      gzip?: boolean;
      headers?: Record<string, string>;
      check: (r: LoadResult) => boolean;
      target: string;
    }[] = [
      {
        name: 'GET /api/users?page=1&limit=10',
        path: '/users?page=1&limit=10',
        target: '>= 25 %',
        check: (r) => r.rps / bareResult.rps >= 0.25,
      },
      {
        name: 'GET /api/users?page=500&limit=10',
        path: '/users?page=500&limit=10',
        target: '>= 10 %',
        check: (r) => r.rps / bareResult.rps >= 0.1,
      },
      {
        name: 'GET /api/users?search=nguyen%20van&page=1',
        path: '/users?search=nguyen%20van&page=1',
        target: 'p95 < 50',
        check: (r) => r.p95 < 50,
      },
      {
        name: 'GET /api/organizations/tree (5,000 nodes, gzip)',
        path: '/organizations/tree',
        gzip: true,
        target: 'p95 < 50',
        check: (r) => r.p95 < 50,
      },
      ...dashboardTargets.map((d) => ({ ...d, target: 'p95 < 50', check: (r: LoadResult) => r.p95 < 50 })),
    ];
    const targets = allTargets.filter((t) => process.env.BENCH_ONLY !== 'dashboard' || t.path.startsWith('/dashboard'));
    // Pages are served from a cache until the next write; this row shows a list that always misses it.
    const uncached = {
      name: 'GET /api/users, pages 1–1,000 in turn (uncached)',
      path: '/users?page=1&limit=10',
      paths: (i: number) => `/api/users?page=${(i % 1_000) + 1}&limit=10`,
    };
    const rows: (LoadResult & { ratio?: number; target?: string; pass?: boolean })[] = [bareResult];
    for (const t of targets) {
      const headers = t.headers ?? auth;
      const probe = await fetch(base + t.path, { headers });
      if (!probe.ok) {
        console.log(`skipped ${t.name}: ${probe.status} ${await probe.text()}`);
        continue;
      }
      const r = await load(t.name, base + t.path, { headers: t.gzip ? { ...headers, 'accept-encoding': 'gzip' } : headers });
      rows.push({ ...r, ratio: r.rps / bareResult.rps, target: t.target, pass: t.check(r) && r.non2xx === 0 });
    }
    if (process.env.BENCH_ONLY !== 'dashboard') {
      const u = await load(uncached.name, base + uncached.path, { headers: auth, paths: uncached.paths });
      rows.push({ ...u, ratio: u.rps / bareResult.rps });
    }
    console.log('');
    printTable(rows);
  } finally {
    app.kill();
    bare.kill();
  }
  // Spreadsheet import/export (issue 4), each in a server process of its own so its peak RSS is its own.
  if (!['http', 'mix', 'dashboard', 'pages'].includes(process.env.BENCH_ONLY ?? ''))
    printImportExportTable(await runImportExportBench(dbPath, { import: APP_PORT + 2, export: APP_PORT + 3 }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
