import { createWriteStream } from 'node:fs';
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { processTree } from './cpu';

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p95: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  headers?: Record<string, string>;
  /** Vary the path per request (e.g. walk through pages); the url's path is the first one. */
  paths?: (i: number) => string;
}

/**
 * Every route, the bare one included, is first run for WARMUP_SECONDS unmeasured: the first
 * second of a fresh process is JIT compilation and cold caches, which no long-running server sees.
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP ?? 2);

export async function load(
  name: string,
  url: string,
  opts: LoadOptions = {},
  seconds = Number(process.env.BENCH_SECONDS ?? 8),
): Promise<LoadResult> {
  let n = 0;
  const requests = opts.paths ? [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, path: opts.paths!(n++) }) }] : undefined;
  const run = (duration: number) =>
    autocannon({ url, connections: 50, duration, headers: opts.headers ?? {}, requests: requests as autocannon.Request[] | undefined });
  if (WARMUP_SECONDS > 0) await run(WARMUP_SECONDS);
  const r = await run(seconds);
  const p95 = (r.latency as unknown as Record<string, number>).p97_5 ?? r.latency.p99;
  return { name, rps: r.requests.average, p50: r.latency.p50, p95: percentile95(r) ?? p95, errors: r.errors, non2xx: r.non2xx };
}

// autocannon reports p90 and p97.5; interpolate p95 between them.
function percentile95(r: autocannon.Result): number | undefined {
  const l = r.latency as unknown as Record<string, number>;
  if (l.p90 == null || l.p97_5 == null) return undefined;
  return l.p90 + ((l.p97_5 - l.p90) * (95 - 90)) / (97.5 - 90);
}

/** Start a server process and resolve once it prints or answers. */
export async function startProcess(args: string[], env: Record<string, string>, readyUrl: string, logFile?: string): Promise<ChildProcess> {
  // The API runs as `npm start` runs it (the api/dist bundle); TypeScript files through tsx.
  const loader = args[0]?.endsWith('.ts') ? ['--import', 'tsx'] : ['--enable-source-maps'];
  // BENCH_NODE_FLAGS: extra flags for the servers, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" or "--trace-gc".
  const flags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...flags, ...loader, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (logFile) child.stdout!.pipe(createWriteStream(logFile));
  else child.stdout!.resume();
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(readyUrl);
      if (res.status < 500) return child;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error(`server did not start: ${args.join(' ')}`);
}

/**
 * One worker answering is not all of them listening: wait (up to 20 s) until the server's process tree
 * holds its primary and `processes` workers (one process when 1), then a moment for the last to listen.
 * Returns how many processes it holds.
 */
export async function waitForProcesses(child: ChildProcess, processes: number): Promise<number> {
  const want = processes > 1 ? processes + 1 : 1;
  const deadline = Date.now() + 20_000;
  while (processTree(child.pid!).length < want && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  if (processes > 1) await new Promise((r) => setTimeout(r, 2000));
  return processTree(child.pid!).length;
}

/** SIGTERM, then wait (up to 10 s) for the process to exit, so the next server can take the port and the database. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([done, new Promise((r) => setTimeout(r, 10_000))]);
}

export function printTable(rows: (LoadResult & { ratio?: number; target?: string; pass?: boolean })[]): void {
  const line = (cols: string[]) => console.log(cols.map((c, i) => (i === 0 ? c.padEnd(48) : c.padStart(11))).join(' '));
  line(['route', 'req/s', 'p50 ms', 'p95 ms', 'vs bare', 'target', 'ok']);
  for (const r of rows) {
    line([
      r.name,
      r.rps.toFixed(0),
      r.p50.toFixed(1),
      r.p95.toFixed(1),
      r.ratio == null ? '' : `${(r.ratio * 100).toFixed(1)} %`,
      r.target ?? '',
      r.pass == null ? '' : r.pass ? 'yes' : 'NO',
    ]);
  }
}
