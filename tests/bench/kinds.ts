/**
 * BENCH_ONLY=kinds: each read kind of the mix (mix.ts) alone, 20 connections for BENCH_SECONDS, on a
 * fresh server, twice in a row (the second run finds the caches the first one filled): req/s, the
 * API's CPU time per response and, on PostgreSQL, the database server's. The mix's median hides which
 * kind costs what on which engine; this table shows it (a user's details cost PostgreSQL's deployment
 * more than twice SQLite's process on 2026-11-29).
 */
import { sampleCpu, cpuBetween } from './cpu';
import { drive, nextRequest, type Admin, type Kind } from './mix';
import type { ServerPids } from './mix-runs';

const KINDS: Kind[] = ['page', 'search', 'filters', 'members', 'details', 'tree', 'permissions'];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 20;

export interface KindRun {
  kind: Kind;
  round: number;
  rps: number;
  appCpuMs: number;
  dbCpuMs: number;
  p99: number;
}

/** A request of this kind from the connection's admin, or from the next admin who can send one (not every admin has users or units). */
function requestOf(admins: Admin[], conn: number, kind: Kind) {
  for (let k = 0; k < admins.length; k++) {
    const a = admins[(conn + k) % admins.length]!;
    for (let i = 0; i < 200; i++) {
      const r = nextRequest(a, 0);
      if (r.kind === kind) return { ...r, token: a.token };
    }
  }
  throw new Error(`no admin of the mix sends a ${kind} request`);
}

export async function runKinds(port: number, pids: Omit<ServerPids, 'bare'>, admins: Admin[]): Promise<KindRun[]> {
  const runs: KindRun[] = [];
  for (const round of [1, 2])
    for (const kind of KINDS) {
      const app = sampleCpu(pids.app);
      const db = pids.database ? sampleCpu(pids.database) : undefined;
      const r = await drive(port, SECONDS, CONNECTIONS, (conn) => requestOf(admins, conn, kind));
      const per = (seconds: number) => (seconds * 1000) / Math.max(1, r.responses);
      runs.push({
        kind,
        round,
        rps: r.rps,
        appCpuMs: per(cpuBetween(app, sampleCpu(pids.app))),
        dbCpuMs: db ? per(cpuBetween(db, sampleCpu(pids.database!))) : 0,
        p99: r.byKind[kind]?.p99 ?? NaN,
      });
    }
  return runs;
}

export function printKinds(label: string, runs: KindRun[]): void {
  console.log(`\nEach read kind alone, ${label} (${CONNECTIONS} connections, ${SECONDS} s a kind; round 2 finds round 1's caches)`);
  console.log(
    `${'kind'.padEnd(12)} ${'round'.padStart(5)} ${'req/s'.padStart(8)} ${'API CPU ms/resp.'.padStart(17)} ${'DB CPU ms/resp.'.padStart(16)} ${'p99 ms'.padStart(7)}`,
  );
  for (const r of runs)
    console.log(
      `${r.kind.padEnd(12)} ${String(r.round).padStart(5)} ${r.rps.toFixed(0).padStart(8)} ${r.appCpuMs.toFixed(2).padStart(17)} ${r.dbCpuMs.toFixed(2).padStart(16)} ${r.p99.toFixed(0).padStart(7)}`,
    );
}
