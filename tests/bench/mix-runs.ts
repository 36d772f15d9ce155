/**
 * Runs the realistic mix (mix.ts) BENCH_REPEAT times per share of writes, each run next to the bare
 * Hono route with the same client, and reports the median and the spread (min–max) of the runs:
 * req/s, the ratio to the bare route, the server's CPU time per response (cpu.ts: every process of
 * the server, all threads; on PostgreSQL plus the postmaster's process tree) and each kind's p50/p99.
 * A single good run on a shared machine is no result.
 */
import { loadavg } from 'node:os';
import { withCpu } from './cpu';
import { drive, nextRequest, type Admin, type MixResult } from './mix';
import { describeWarmUp, warmUp } from './warm-up';

// BENCH_MIXES: only the mixes with these shares of writes (e.g. "0.1" for a profile of the +10 % writes mix).
const only = process.env.BENCH_MIXES?.split(',').map(Number);
export const MIXES = [
  { name: 'reads only', writes: 0 },
  { name: 'reads + 1 % writes', writes: 0.01 },
  { name: 'reads + 10 % writes', writes: 0.1 },
].filter((m) => !only || only.includes(m.writes));

const READ_KINDS = ['page', 'search', 'filters', 'members', 'details', 'tree', 'permissions'];

export interface MixRun {
  rps: number;
  bareRps: number;
  ratio: number;
  /** Server CPU milliseconds per response, all its processes (and the database server's, when it has one). */
  cpuMs: number;
  /** The database server's share of cpuMs (PostgreSQL's processes); 0 on SQLite, which runs inside the API. */
  dbCpuMs: number;
  bareCpuMs: number;
  processes: number;
  /** The machine's 1-minute load average at the end of the run. */
  load: number;
  byKind: MixResult['byKind'];
}

/** Median and spread of one figure over the runs. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(xs: number[]): Spread {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length / 2;
  const median = s.length % 2 ? s[Math.floor(mid)]! : (s[mid - 1]! + s[mid]!) / 2;
  return { median, min: s[0] ?? NaN, max: s.at(-1) ?? NaN };
}

export interface MixRow {
  name: string;
  writes: number;
  runs: MixRun[];
  rps: Spread;
  ratio: Spread;
  cpuMs: Spread;
  dbCpuMs: Spread;
  bareCpuMs: Spread;
  /** Per kind: median and spread of its p50 and p99 over the runs, and the summed non-2xx. */
  byKind: Record<string, { n: number; p50: Spread; p99: Spread; non2xx: number }>;
  /** The slowest read kind's p99 in each run, as a spread. */
  readP99: Spread;
}

export interface ServerPids {
  app: number;
  bare: number;
  /** The database server's root process (PostgreSQL's postmaster), whose tree's CPU counts too. */
  database?: number;
}

export async function runMixes(
  appPort: number,
  barePort: number,
  pids: ServerPids,
  admins: Admin[],
  /** The API processes serving (WEB_CONCURRENCY): each warms up on its share of the requests. */
  processes: number,
  seconds = Number(process.env.BENCH_SECONDS ?? 8),
  repeat = Number(process.env.BENCH_REPEAT ?? 3),
): Promise<MixRow[]> {
  const connections = 20;
  const appReq = (writes: number) => (conn: number) => ({
    ...nextRequest(admins[conn % admins.length]!, writes),
    token: admins[conn % admins.length]!.token,
  });
  const bareReq = () => ({ kind: 'page' as const, method: 'GET', path: '/bare' });
  // Warm both servers (JIT, caches) before measuring: the app for 10 s per API process, its curve printed (warm-up.ts).
  await drive(barePort, 2, connections, bareReq);
  console.log(
    `\n  ${describeWarmUp(await warmUp(appPort, [pids.app, ...(pids.database ? [pids.database] : [])], processes, connections, appReq(0)))}`,
  );
  const rows: MixRow[] = [];
  for (const mix of MIXES) {
    const runs: MixRun[] = [];
    for (let i = 0; i < repeat; i++) {
      const bare = await withCpu(pids.bare, () => drive(barePort, seconds, connections, bareReq));
      const db = await withCpu(pids.database ?? [], () =>
        withCpu(pids.app, () => drive(appPort, seconds, connections, appReq(mix.writes))),
      );
      const app = db.value;
      const perResponse = (s: number) => (s * 1000) / Math.max(1, app.value.responses);
      // BENCH_EACH=1: each run as it ends (a first run colder than the next shows here, not in the median).
      if (process.env.BENCH_EACH === '1')
        console.log(
          `  run ${i + 1} of ${mix.name}: ${Math.round(app.value.rps)} req/s, ${perResponse(app.cpuSeconds + db.cpuSeconds).toFixed(2)} ms CPU a response`,
        );
      runs.push({
        rps: app.value.rps,
        bareRps: bare.value.rps,
        ratio: app.value.rps / bare.value.rps,
        cpuMs: perResponse(app.cpuSeconds + db.cpuSeconds),
        dbCpuMs: perResponse(db.cpuSeconds),
        bareCpuMs: (bare.cpuSeconds * 1000) / Math.max(1, bare.value.responses),
        processes: app.processes,
        load: loadavg()[0]!,
        byKind: app.value.byKind,
      });
    }
    const kinds = [...READ_KINDS, 'write'].filter((k) => runs.some((r) => r.byKind[k]));
    const byKind: MixRow['byKind'] = {};
    for (const k of kinds) {
      const of = runs.map((r) => r.byKind[k]).filter((x) => x != null);
      byKind[k] = {
        n: of.reduce((n, x) => n + x.n, 0),
        p50: spread(of.map((x) => x.p50)),
        p99: spread(of.map((x) => x.p99)),
        non2xx: of.reduce((n, x) => n + x.non2xx, 0),
      };
    }
    rows.push({
      name: mix.name,
      writes: mix.writes,
      runs,
      rps: spread(runs.map((r) => r.rps)),
      ratio: spread(runs.map((r) => r.ratio)),
      cpuMs: spread(runs.map((r) => r.cpuMs)),
      dbCpuMs: spread(runs.map((r) => r.dbCpuMs)),
      bareCpuMs: spread(runs.map((r) => r.bareCpuMs)),
      byKind,
      readP99: spread(runs.map((r) => Math.max(...READ_KINDS.map((k) => r.byKind[k]?.p99 ?? 0)))),
    });
  }
  return rows;
}

const fmt = (x: number, digits: number) => x.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
/** "650 (600–700)": the median and the spread of the runs. */
export const show = (s: Spread, digits = 0, unit = '') =>
  s.min === s.max ? `${fmt(s.median, digits)}${unit}` : `${fmt(s.median, digits)}${unit} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;

export function printMixes(label: string, rows: MixRow[]): void {
  const runs = rows[0]?.runs.length ?? 0;
  console.log(`\nRealistic mix, ${label} (20 admins, 20 connections; median (min–max) of ${runs} run${runs === 1 ? '' : 's'})`);
  const line = (cols: string[]) => console.log(cols.map((c, i) => (i === 0 ? c.padEnd(22) : c.padStart(20))).join(' '));
  for (const r of rows) {
    console.log('');
    line([r.name, 'req/s', 'vs bare', 'CPU ms/response', 'bare CPU ms/resp.']);
    line([
      '',
      show(r.rps),
      show({ median: r.ratio.median * 100, min: r.ratio.min * 100, max: r.ratio.max * 100 }, 1, ' %'),
      show(r.cpuMs, 2),
      show(r.bareCpuMs, 3),
    ]);
    line([
      '',
      `bare ${show(spread(r.runs.map((x) => x.bareRps)))}`,
      `processes ${[...new Set(r.runs.map((x) => x.processes))].join('/')}`,
      `load ${show(spread(r.runs.map((x) => x.load)), 1)}`,
      r.dbCpuMs.max > 0 ? `of it PostgreSQL ${show(r.dbCpuMs, 2)}` : '',
    ]);
    line(['  kind', 'n', 'p50 ms', 'p99 ms', 'non-2xx']);
    for (const [k, s] of Object.entries(r.byKind)) line([`  ${k}`, String(s.n), show(s.p50, 1), show(s.p99, 1), String(s.non2xx)]);
  }
}

export interface MixSet {
  processes: number;
  actual: string;
  rows: MixRow[];
  /** 'SQLite' or 'PostgreSQL'; absent: SQLite. */
  engine?: string;
}

/**
 * One line per engine, mix and process count: the figures to compare, and the throughput against the
 * same engine's one process. With PostgreSQL beside SQLite, each PostgreSQL line is also set against
 * the SQLite single process of the same run (issue 29's target: PostgreSQL with 2 processes at least
 * that figure, every read kind's p99 < 100 ms).
 */
export function printSummary(sets: MixSet[]): void {
  const engines = new Set(sets.map((s) => s.engine ?? 'SQLite'));
  const both = engines.size > 1;
  console.log("\nSummary (median (min–max) of the runs; CPU = the server's CPU time per response, the figure to judge by)");
  const line = (cols: string[]) => console.log(cols.map((c, i) => (i === 0 ? c.padEnd(22) : c.padStart(i === 1 ? 26 : 19))).join(' '));
  line([
    'mix',
    both ? 'engine, processes' : 'WEB_CONCURRENCY',
    'req/s',
    'vs bare',
    'CPU ms/response',
    'read p99 ms (max)',
    '× 1 process',
    ...(both ? ['× SQLite 1'] : []),
  ]);
  const oneOf = (engine: string) => sets.find((s) => s.processes === 1 && (s.engine ?? 'SQLite') === engine);
  const sqliteOne = oneOf('SQLite');
  for (const set of sets) {
    const engine = set.engine ?? 'SQLite';
    const one = oneOf(engine);
    for (const r of set.rows) {
      const base = one?.rows.find((x) => x.name === r.name);
      const sqlite = sqliteOne?.rows.find((x) => x.name === r.name);
      line([
        r.name,
        both ? `${engine}, ${set.processes}` : `${set.processes} (${set.actual})`,
        show(r.rps),
        `${fmt(r.ratio.median * 100, 1)} %`,
        show(r.cpuMs, 2),
        show(r.readP99, 0),
        base && set !== one ? `${fmt(r.rps.median / base.rps.median, 2)}×` : '',
        ...(both ? [sqlite && set !== sqliteOne ? `${fmt(r.rps.median / sqlite.rps.median, 2)}×` : ''] : []),
      ]);
    }
  }
  const pgTwo = sets.find((s) => s.engine === 'PostgreSQL' && s.processes === 2);
  if (!pgTwo || !sqliteOne) return;
  console.log('\nIssue 29 target, PostgreSQL with 2 processes against SQLite with 1 (medians of this run):');
  for (const r of pgTwo.rows) {
    const sqlite = sqliteOne.rows.find((x) => x.name === r.name);
    if (!sqlite) continue;
    const slow = Object.entries(r.byKind).filter(([k, s]) => READ_KINDS.includes(k) && s.p99.median >= 100);
    console.log(
      `  ${r.name}: ${fmt(r.rps.median, 0)} vs ${fmt(sqlite.rps.median, 0)} req/s — ${r.rps.median >= sqlite.rps.median ? 'met' : 'NOT met'};` +
        ` read p99 < 100 ms — ${slow.length ? `NOT met (${slow.map(([k, s]) => `${k} ${fmt(s.p99.median, 0)} ms`).join(', ')})` : 'met'}`,
    );
  }
}
