/**
 * Import/export benchmark (issue 4): a 10,000-row users file uploaded, validated and executed
 * against a server on a fresh database (< 15 s, peak RSS < 400 MB), and an export of 100,000
 * users from the benchmark database (< 20 s, peak RSS < 300 MB). Each measurement runs in a server
 * of its own, so the largest VmHWM among its processes is that operation's peak. The servers run
 * BENCH_IE_PROCESSES API processes (WEB_CONCURRENCY, default 2). Run by `npm run bench` after
 * the list benchmarks, or alone with `npx tsx tests/bench/import-export.ts`. With a PostgreSQL URL
 * (DATABASE_URL in `npm run bench`) each measurement runs on SQLite and then on PostgreSQL: the fresh
 * database is built in SQLite and copied into `<database>_import` of the same cluster (pg.ts), the
 * export reads the bench database already copied there (issue 29: within 1.5× of SQLite's times). BENCH_IE_INTO=bench
 * imports into a copy of the bench database instead (BENCH_USERS names which, as in run.ts).
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openDb } from '../../api/src/db/client';
import { runMigrations } from '../../api/src/db/migrate';
import { seedAdmin, seedDefaultRoles, seedPermissions } from '../../api/src/seed/seed';
import { loadEnv } from '../../api/src/env';
import { copySqliteToPg } from '../../api/src/backup/db-copy';
import { generateBenchDb } from './generate';
import { countRows, usersFile } from './xlsx-files';
import { processTree } from './cpu';
import { databaseUrl, isPostgresUrl, recreateDatabase } from './pg';
import { startProcess, stopProcess, waitForProcesses } from './load';
import { addTargets, benchCopy, benchCopyPg, INTO_BENCH } from './import-targets';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const SECRETS = { JWT_SECRET: 'bench-jwt-secret-000000', APP_SECRET: 'bench-app-secret-000000', ADMIN_PASSWORD: 'admin123' };
const IMPORT_ROWS = 10_000;
const HASHED_ROWS = 1_000;
const IE_PROCESSES = Number(process.env.BENCH_IE_PROCESSES ?? 2);
/** The server bundle: api/dist unless BENCH_API_BUNDLE names another build (scripts/build-api.mjs <dir>). */
const BUNDLE = resolve(root, process.env.BENCH_API_BUNDLE ?? 'api/dist/index.js');
/** BENCH_IE_ONLY=import: only the 10k import, on each engine (the import's own figure, in a minute); =export: only the export. */
const IMPORT_ONLY = process.env.BENCH_IE_ONLY === 'import';
const EXPORT_ONLY = process.env.BENCH_IE_ONLY === 'export';
/**
 * BENCH_EXPORT_SEARCH: the export's search filter, as the users list takes it. At 1M users the issue's
 * "100,000-row export" is a slice of the tree, not all of it: 'nguyen' picks about 84,000 users.
 */
const EXPORT_SEARCH = process.env.BENCH_EXPORT_SEARCH || undefined;
const servedBy = (n: number) => (n === 1 ? 'one server process' : `primary + ${n - 1} workers`);

export interface ImportExportResult {
  name: string;
  seconds: number;
  rssMb: number | null;
  timeTarget?: number;
  rssTarget?: number;
  note?: string;
}

/** The largest peak resident set size (VmHWM) so far among a server's processes, in MB. */
function peakRssMb(pid: number): number {
  let peak = NaN;
  for (const p of processTree(pid)) {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (m) peak = Math.max(Number.isNaN(peak) ? 0 : peak, Number(m[1]) / 1024);
    } catch {
      /* gone meanwhile */
    }
  }
  return peak;
}

/** A fresh database with the seed and a small organization tree, classes and departments for the rows to reference. */
async function freshDb(path: string) {
  const env = loadEnv({ DATABASE_PATH: path, ...SECRETS, SEED_DEMO: 'false' });
  const db = openDb(path);
  runMigrations(db);
  seedPermissions(db);
  seedDefaultRoles(db);
  await seedAdmin(db, env);
  db.$client.close();
  addTargets(path);
}

async function login(base: string): Promise<Record<string, string>> {
  const res = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@doanhoi.local', password: 'admin123' }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return { authorization: `Bearer ${((await res.json()) as { accessToken: string }).accessToken}` };
}

async function call<T>(what: string, res: Promise<Response>): Promise<T> {
  const r = await res;
  const body = await r.text();
  if (!r.ok) throw new Error(`${what}: ${r.status} ${body.slice(0, 500)}`);
  return JSON.parse(body) as T;
}

/** Upload, validate and execute one file; returns seconds per phase and the execution result. */
async function runImport(base: string, auth: Record<string, string>, file: Uint8Array, options: Record<string, unknown> = {}) {
  const t0 = performance.now();
  const fd = new FormData();
  fd.append('file', new File([file as Uint8Array<ArrayBuffer>], 'users.xlsx'));
  const up = await call<{ sessionId: string; totalRows: number }>(
    'upload',
    fetch(`${base}/users/import/upload`, { method: 'POST', headers: auth, body: fd }),
  );
  const t1 = performance.now();
  const v = await call<{ summary: { valid: number; total: number } }>(
    'validate',
    fetch(`${base}/users/import/${up.sessionId}/validate`, { headers: auth }),
  );
  const t2 = performance.now();
  const ex = await call<{ importedCount: number; skippedCount: number; failedCount: number }>(
    'execute',
    fetch(`${base}/users/import/${up.sessionId}/execute`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ options }),
    }),
  );
  const t3 = performance.now();
  return {
    upload: (t1 - t0) / 1000,
    validate: (t2 - t1) / 1000,
    execute: (t3 - t2) / 1000,
    total: (t3 - t0) / 1000,
    summary: v.summary,
    result: ex,
  };
}

/** POST /export/users with every field; reads the stream to its end. */
async function runExport(base: string, auth: Record<string, string>, search?: string) {
  const { USER_EXPORT_FIELDS } = await import('@doanhoi/shared');
  const t0 = performance.now();
  const res = await fetch(`${base}/export/users`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ fields: USER_EXPORT_FIELDS.map((f) => f.key), format: 'xlsx', search }),
  });
  if (!res.ok) throw new Error(`export: ${res.status} ${await res.text()}`);
  const chunks: Uint8Array[] = [];
  for await (const c of res.body as unknown as AsyncIterable<Uint8Array>) chunks.push(c);
  const seconds = (performance.now() - t0) / 1000;
  return { seconds, buf: Buffer.concat(chunks), columns: USER_EXPORT_FIELDS.length };
}

/**
 * A light authenticated GET (the caller's profile) every 10 ms and, on a connection of its own at
 * the same time, a light write (the caller's phone) every 10 ms, while `work` runs: p99 and worst
 * latency of each (issue 12: the GET under 50 ms p99 and 100 ms max; the write waits on SQLite's
 * lock while the import's transaction holds it). Concurrent since issue 28: a GET that lands on a
 * process whose write is waiting for the lock shows whether that process still answers.
 */
async function probed<T>(base: string, auth: Record<string, string>, work: Promise<T>): Promise<{ value: T; note: string }> {
  let done = false;
  const job = work.finally(() => (done = true));
  const reads: number[] = [];
  const writes: number[] = [];
  const loop = async (write: boolean) => {
    for (let i = 0; !done; i++) {
      const t0 = performance.now();
      const r = write
        ? await fetch(`${base}/auth/me/profile`, {
            method: 'PATCH',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ phone: `09${String(10_000_000 + i).slice(-8)}` }),
          })
        : await fetch(`${base}/auth/profile`, { headers: auth });
      await r.arrayBuffer();
      if (!r.ok) throw new Error(`${write ? 'phone change' : 'profile'} during the job: ${r.status}`);
      (write ? writes : reads).push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  await Promise.all([loop(false), loop(true)]);
  const value = await job;
  const figures = (ms: number[]) => {
    ms.sort((a, b) => a - b);
    const p99 = ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))] ?? 0;
    return `p99 ${p99.toFixed(0)} ms, max ${(ms.at(-1) ?? 0).toFixed(0)} ms (n=${ms.length})`;
  };
  return { value, note: `light GET meanwhile: ${figures(reads)}; light write: ${figures(writes)}` };
}

/**
 * Runs both measurements; `benchDb` is the 100k-user database (built when missing). With `pgUrl` (the
 * bench database already copied there) they run on SQLite and then again on PostgreSQL.
 */
export async function runImportExportBench(
  benchDb: string,
  ports = { import: 3493, export: 3494 },
  pgUrl?: string,
): Promise<ImportExportResult[]> {
  const results = await runOn(benchDb, ports, null);
  if (!pgUrl) return results;
  const onPg = await runOn(benchDb, ports, pgUrl);
  return [...results.map((r) => ({ ...r, name: `SQLite: ${r.name}` })), ...onPg.map((r) => ({ ...r, name: `PostgreSQL: ${r.name}` }))];
}

type ServerEnv = (port: number, db: string, url: string | null) => Record<string, string>;

async function runOn(benchDb: string, ports: { import: number; export: number }, pgUrl: string | null): Promise<ImportExportResult[]> {
  const results: ImportExportResult[] = [];
  const dir = join(tmpdir(), 'doanhoi-bench-import');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const env: ServerEnv = (port, db, url) => ({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_PATH: db,
    // Empty: SQLite on DATABASE_PATH, whatever the bench's own environment holds.
    DATABASE_URL: url ?? '',
    ...SECRETS,
    SEED_DEMO: 'false',
    LOGIN_RATE_LIMIT: '100000',
    LOG_LEVEL: 'warn',
    WEB_CONCURRENCY: String(IE_PROCESSES),
  });
  try {
    if (!EXPORT_ONLY) results.push(...(await importPart(dir, benchDb, ports.import, pgUrl, env)));
    if (!IMPORT_ONLY) results.push(await exportPart(benchDb, ports.export, pgUrl, env));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

/** 1. The 10k import into a fresh database (or a copy of the bench database: BENCH_IE_INTO=bench), then unless
 * BENCH_IE_ONLY=import the round trip and the hashed import, in a server of its own. */
async function importPart(dir: string, benchDb: string, port: number, pgUrl: string | null, env: ServerEnv) {
  const results: ImportExportResult[] = [];
  const freshPath = join(dir, 'fresh.db');
  // On PostgreSQL the same database, moved by the db:copy path into a database of its own.
  const importUrl = pgUrl && databaseUrl(pgUrl, `${decodeURIComponent(new URL(pgUrl).pathname.slice(1))}_import`);
  if (INTO_BENCH && importUrl) await benchCopyPg(pgUrl!, importUrl);
  else if (INTO_BENCH) await benchCopy(benchDb, freshPath);
  else {
    await freshDb(freshPath);
    if (importUrl) {
      await recreateDatabase(importUrl);
      await copySqliteToPg(freshPath, importUrl);
    }
  }
  const file = await usersFile(IMPORT_ROWS, 'IMP', (i) => (i % 2 ? '-' : ''));
  const hashedFile = await usersFile(HASHED_ROWS, 'PWD', (i) => `Passw0rd-${i}`);
  console.log(`\nimport file: ${IMPORT_ROWS.toLocaleString('en')} rows, ${(file.length / 1024).toFixed(0)} KB`);
  const app = await startProcess([BUNDLE], env(port, freshPath, importUrl), `http://127.0.0.1:${port}/api/docs`);
  const servers = servedBy(await waitForProcesses(app, IE_PROCESSES));
  try {
    const base = `http://127.0.0.1:${port}/api`;
    const auth = await login(base);
    const before = peakRssMb(app.pid!);
    const { value: r, note } = await probed(base, auth, runImport(base, auth, file));
    const rss = peakRssMb(app.pid!);
    if (r.result.importedCount !== IMPORT_ROWS)
      throw new Error(`import wrote ${r.result.importedCount} of ${IMPORT_ROWS} rows: ${JSON.stringify(r.result).slice(0, 500)}`);
    console.log(
      `  upload ${r.upload.toFixed(2)} s, validate ${r.validate.toFixed(2)} s, execute ${r.execute.toFixed(2)} s (server peak RSS before: ${before.toFixed(0)} MB)`,
    );
    results.push({
      name: `import ${IMPORT_ROWS.toLocaleString('en')} users (upload+validate+execute)`,
      seconds: r.total,
      rssMb: rss,
      timeTarget: 15,
      rssTarget: 400,
      note: `${servers}; ${note}`,
    });

    if (IMPORT_ONLY) return results;
    // The same 10k users exported and re-imported with updateExisting: nothing may change.
    const exp = await runExport(base, auth);
    const again = await runImport(base, auth, new Uint8Array(exp.buf), { updateExisting: true });
    const unchanged = again.result.importedCount === 0 && again.result.failedCount === 0;
    results.push({
      name: 'round trip: export 10k, re-import (updateExisting)',
      seconds: exp.seconds + again.total,
      rssMb: peakRssMb(app.pid!),
      note: unchanged ? 'unchanged' : `CHANGED ${JSON.stringify(again.result).slice(0, 200)}`,
    });

    const hashed = await runImport(base, auth, hashedFile);
    results.push({
      name: `import ${HASHED_ROWS.toLocaleString('en')} users with explicit passwords (argon2)`,
      seconds: hashed.total,
      rssMb: peakRssMb(app.pid!),
      note: `${((hashed.execute * 1000) / HASHED_ROWS).toFixed(1)} ms/row in execute`,
    });
  } finally {
    await stopProcess(app);
  }

  return results;
}

/** 2. The export of the bench database (BENCH_EXPORT_SEARCH: a slice of it), in a server of its own. */
async function exportPart(benchDb: string, port: number, pgUrl: string | null, env: ServerEnv): Promise<ImportExportResult> {
  if (!existsSync(benchDb)) {
    mkdirSync(dirname(benchDb), { recursive: true });
    await generateBenchDb(benchDb);
  }
  const app = await startProcess([BUNDLE], env(port, benchDb, pgUrl), `http://127.0.0.1:${port}/api/docs`);
  const servers = servedBy(await waitForProcesses(app, IE_PROCESSES));
  try {
    const base = `http://127.0.0.1:${port}/api`;
    const auth = await login(base);
    const { value: exp, note } = await probed(base, auth, runExport(base, auth, EXPORT_SEARCH));
    const rss = peakRssMb(app.pid!);
    const rows = await countRows(exp.buf);
    return {
      name: `export ${(rows - 1).toLocaleString('en')} users × ${exp.columns} columns${EXPORT_SEARCH ? ` (search '${EXPORT_SEARCH}')` : ''}`,
      seconds: exp.seconds,
      rssMb: rss,
      timeTarget: 20,
      rssTarget: 300,
      note: `${servers}; ${(exp.buf.length / 1024 / 1024).toFixed(1)} MB file; ${note}`,
    };
  } finally {
    await stopProcess(app);
  }
}

export function printImportExportTable(rows: ImportExportResult[]): boolean {
  const line = (cols: string[]) => console.log(cols.map((c, i) => (i === 0 ? c.padEnd(58) : c.padStart(10))).join(' '));
  console.log('');
  line(['import / export', 'seconds', 'target', 'peak RSS', 'target', 'ok', '']);
  let allPass = true;
  for (const r of rows) {
    const timeOk = r.timeTarget == null || r.seconds < r.timeTarget;
    const rssOk = r.rssTarget == null || (r.rssMb != null && r.rssMb < r.rssTarget);
    const judged = r.timeTarget != null || r.rssTarget != null;
    if (judged && !(timeOk && rssOk)) allPass = false;
    line([
      r.name,
      r.seconds.toFixed(2),
      r.timeTarget == null ? '' : `< ${r.timeTarget}`,
      r.rssMb == null ? '' : `${r.rssMb.toFixed(0)} MB`,
      r.rssTarget == null ? '' : `< ${r.rssTarget} MB`,
      judged ? (timeOk && rssOk ? 'yes' : 'NO') : '',
      r.note ?? '',
    ]);
  }
  return allPass;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const port = Number(process.env.BENCH_APP_PORT ?? 3491);
  // DATABASE_URL=postgres://…: also on PostgreSQL, whose database must hold the bench database already (npm run bench copies it).
  const url = process.env.DATABASE_URL;
  const users = Number(process.env.BENCH_USERS ?? 100_000);
  runImportExportBench(
    join(tmpdir(), 'doanhoi-bench', users === 100_000 ? 'bench.db' : `bench-${users}.db`),
    { import: port + 2, export: port + 3 },
    isPostgresUrl(url) ? url : undefined,
  )
    .then((rows) => printImportExportTable(rows))
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
