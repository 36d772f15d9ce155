/**
 * `npm run bench`: builds a 100k-user database (BENCH_USERS), starts the real server and a bare Hono route,
 * runs the realistic mix (mix.ts: 20 admins, random requests, 0/1/10 % writes) against the bare route
 * with 1 and with 2 API processes (BENCH_PROCESSES, passed as WEB_CONCURRENCY), with the server's CPU
 * time per response, then loads each list route with 50 connections and prints req/s, p50, p95 and the ratio to the bare route;
 * then times the spreadsheet import (10k rows) and export (100k users) with their peak RSS.
 * With DATABASE_URL=postgres://… (issue 29) the SQLite database is built as before, then copied into
 * that PostgreSQL database (pg.ts, the db:copy path; recreated unless BENCH_REUSE=1 finds it complete),
 * the mix runs on SQLite with 1 process and then on PostgreSQL with each process count, CPU per
 * response counting the postmaster's process tree too, and every later part runs on PostgreSQL.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateBenchDb } from './generate';
import { printImportExportTable, runImportExportBench } from './import-export';
import { load, printTable, startProcess, stopProcess, waitForProcesses, type LoadResult } from './load';
import { prepareMix, signIn } from './mix';
import { printMixes, printSummary, runMixes, type MixSet } from './mix-runs';
import { printKinds, runKinds } from './kinds';
import { isPostgresUrl, postmasterPid, sampleFromPg, serverSettings, syncBenchDatabase } from './pg';
import { DASHBOARD_ADMIN, prepareDashboard } from './dashboard';
import { printPageTable, runPageBench } from './pages';
import { prepareIssue30, printIssue30, runIssue30 } from './issue30';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const dir = join(tmpdir(), 'doanhoi-bench');
// BENCH_USERS: the database's size; organizations and classes in proportion (5,000 and 200 at 100k).
const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const COUNTS = { users: USERS, organizations: Math.round(USERS / 20), classes: Math.max(200, Math.round(USERS / 500)) };
const dbPath = join(dir, USERS === 100_000 ? 'bench.db' : `bench-${USERS}.db`);
// BENCH_PROCESSES: the API process counts the mix runs with, one server after the other on the same database.
const PROCESSES = (process.env.BENCH_PROCESSES ?? '1,2')
  .split(',')
  .map(Number)
  .filter((n) => n >= 1);
const APP_PORT = Number(process.env.BENCH_APP_PORT ?? 3491);
const BARE_PORT = Number(process.env.BENCH_BARE_PORT ?? 3492);
// DATABASE_URL=postgres://…: measure a PostgreSQL deployment (the SQLite single process beside it in the mix).
const PG_URL = isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : undefined;
type Engine = 'SQLite' | 'PostgreSQL';

async function main() {
  if (process.env.BENCH_REUSE !== '1' || !existsSync(dbPath)) {
    for (const f of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) rmSync(f, { force: true });
    mkdirSync(dir, { recursive: true });
    const t = Date.now();
    await generateBenchDb(dbPath, COUNTS);
    const n = (x: number) => x.toLocaleString('en');
    console.log(
      `generated ${n(COUNTS.users)} users / ${n(COUNTS.organizations)} organizations / ${n(COUNTS.classes)} classes in ${((Date.now() - t) / 1000).toFixed(1)} s`,
    );
  }
  const admins = await prepareMix(dbPath);
  // The dashboard's campaign (a fee per member) is added once; the mix alone does not need it.
  const dash = ['mix', 'kinds'].includes(process.env.BENCH_ONLY ?? '')
    ? { rootId: 0, facultyId: 0, campaignId: 0 }
    : await prepareDashboard(dbPath);
  // BENCH_ONLY=issue30: issue 30's reads (tests/bench/issue30.ts); adds their data to the database once.
  if (PG_URL && process.env.BENCH_ONLY === 'issue30')
    throw new Error('BENCH_ONLY=issue30 reads the SQLite file: run it without DATABASE_URL');
  const issue30 = process.env.BENCH_ONLY === 'issue30' ? prepareIssue30(dbPath, dash.campaignId) : null;
  // Everything the servers read is in the SQLite file by now (the mix's admins, the dashboard's campaign): copy it.
  let pgPid: number | undefined;
  if (PG_URL) {
    await syncBenchDatabase(dbPath, PG_URL, process.env.BENCH_REUSE === '1');
    console.log(`PostgreSQL: ${await serverSettings(PG_URL)}`);
    const postmaster = await postmasterPid(PG_URL);
    if ('pid' in postmaster) {
      pgPid = postmaster.pid;
      console.log(
        `PostgreSQL CPU per response = the API's processes + the postmaster's process tree (pid ${postmaster.pid} from ${postmaster.from}: backends, checkpointer, WAL writer, autovacuum)`,
      );
    } else console.log(`PostgreSQL CPU per response counts the API's processes only: ${postmaster.why}`);
  }
  const env = {
    PORT: String(APP_PORT),
    HOST: '127.0.0.1',
    DATABASE_PATH: dbPath,
    JWT_SECRET: 'bench-jwt-secret-000000',
    APP_SECRET: 'bench-app-secret-000000',
    SEED_DEMO: 'false',
    LOGIN_RATE_LIMIT: '100000',
    // The dashboard rows load one route with 50 connections: the per-user limit would answer them 429.
    DASHBOARD_RATE_LIMIT: '100000000',
    LOG_LEVEL: process.env.BENCH_SERVER_LOG ? 'info' : 'warn',
  };
  // BENCH_SERVER_LOG=<file>: the app's request log (one JSON line per request, with its service time in ms).
  const startApp = async (processes: number, engine: Engine = PG_URL ? 'PostgreSQL' : 'SQLite') => {
    const child = await startProcess(
      // BENCH_API_BUNDLE: another build of the API (scripts/build-api.mjs <dir>), e.g. to compare commits on one database.
      [resolve(root, process.env.BENCH_API_BUNDLE ?? 'api/dist/index.js')],
      // An empty DATABASE_URL keeps a SQLite server on the file although the bench's own environment names PostgreSQL.
      { ...env, WEB_CONCURRENCY: String(processes), DATABASE_URL: engine === 'PostgreSQL' ? PG_URL! : '' },
      `http://127.0.0.1:${APP_PORT}/api/docs`,
      process.env.BENCH_SERVER_LOG,
    );
    const actual = await waitForProcesses(child, processes);
    return { child, actual: actual === 1 ? 'one process' : `primary + ${actual - 1} worker${actual === 2 ? '' : 's'}` };
  };
  // Sampled again before each PostgreSQL server: each engine's writes mix moves its own memberships (pg.ts sampleFromPg).
  const adminsFor = async (engine: Engine) => (engine === 'PostgreSQL' ? await sampleFromPg(PG_URL!, admins) : admins);
  const bare = await startProcess([join(here, 'bare-server.ts')], { PORT: String(BARE_PORT) }, `http://127.0.0.1:${BARE_PORT}/bare`);
  try {
    // On PostgreSQL, the SQLite single process first: the figure issue 29's target compares with.
    const plan: { engine: Engine; n: number }[] = PG_URL
      ? [{ engine: 'SQLite', n: 1 }, ...PROCESSES.map((n) => ({ engine: 'PostgreSQL' as const, n }))]
      : PROCESSES.map((n) => ({ engine: 'SQLite' as const, n }));
    // BENCH_ONLY=kinds: each read kind alone on each server of the plan (kinds.ts).
    if (process.env.BENCH_ONLY === 'kinds') {
      for (const { engine, n } of plan) {
        const { child, actual } = await startApp(n, engine);
        try {
          const mixAdmins = await adminsFor(engine);
          await signIn(APP_PORT, mixAdmins);
          const runs = await runKinds(APP_PORT, { app: child.pid!, database: engine === 'PostgreSQL' ? pgPid : undefined }, mixAdmins);
          printKinds(`${engine}, WEB_CONCURRENCY=${n} (${actual})`, runs);
        } finally {
          await stopProcess(child);
        }
      }
      return;
    }
    // The headline: the realistic mix with each process count in turn, on the same database (tests/bench/mix-runs.ts).
    if (!['pages', 'dashboard', 'issue30'].includes(process.env.BENCH_ONLY ?? '')) {
      const sets: MixSet[] = [];
      for (const { engine, n } of plan) {
        const { child, actual } = await startApp(n, engine);
        try {
          const mixAdmins = await adminsFor(engine);
          await signIn(APP_PORT, mixAdmins);
          const pids = { app: child.pid!, bare: bare.pid!, database: engine === 'PostgreSQL' ? pgPid : undefined };
          const rows = await runMixes(APP_PORT, BARE_PORT, pids, mixAdmins, n);
          printMixes(`${PG_URL ? `${engine}, ` : ''}WEB_CONCURRENCY=${n} (${actual})`, rows);
          sets.push({ processes: n, actual, rows, engine });
        } finally {
          await stopProcess(child);
        }
      }
      printSummary(sets);
    }
    if (process.env.BENCH_ONLY === 'mix') return;
    await benchOneServer(await startApp(1).then((a) => a.child));
  } finally {
    bare.kill();
  }
  // Spreadsheet import/export (issue 4), each in a server process of its own so its peak RSS is its own.
  if (!['http', 'mix', 'dashboard', 'pages', 'issue30'].includes(process.env.BENCH_ONLY ?? ''))
    printImportExportTable(await runImportExportBench(dbPath, { import: APP_PORT + 2, export: APP_PORT + 3 }, PG_URL));

  /** Dashboards, pages in Chromium and the list routes under autocannon, on one server process. */
  async function benchOneServer(app: ChildProcess) {
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
        {
          name: 'GET /api/dashboard/campaigns?organizationId=DT',
          path: `/dashboard/campaigns?organizationId=${dash.rootId}`,
          headers: auth,
        },
        { name: 'GET /api/dashboard/weekly (48k fees)', path: `/dashboard/weekly?campaignId=${dash.campaignId}`, headers: auth },
        { name: 'GET /api/dashboard/campaigns (faculty admin)', path: '/dashboard/campaigns', headers: facultyAuth },
      ];
      for (const d of dashboardTargets) {
        const t0 = performance.now();
        const res = await fetch(base + d.path, { headers: d.headers });
        console.log(`first (uncached) ${d.name}: ${res.status} in ${(performance.now() - t0).toFixed(0)} ms`);
      }

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
      await stopProcess(app);
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
