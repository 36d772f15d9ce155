/**
 * Warms a fresh server with the read mix for 10 s per API process before the mix is measured. A fresh
 * process spends its first seconds compiling (V8 tiers its hot code up) and filling its caches: on
 * 2026-11-29 the 100k read mix cost 2.1–2.7 ms a response in a fresh process's first 2 s, about 0.9
 * after 6 s and 0.6 after 20 s, and with 2 processes, each warming on half the requests, longer still.
 * A 3 s warm-up left the first measured run on that slope (1.15 ms against 0.60 for the
 * fourth), so the runs' spread said more about warm-up than about the server. The curve is printed:
 * a fresh or restarted process does pay it.
 */
import { withCpu } from './cpu';
import { drive, type Req } from './mix';

const WINDOW_SECONDS = 2;
/**
 * BENCH_MIX_WARMUP: seconds of warm-up per API process, each compiling and filling its caches on its
 * share of the requests (BENCH_WARMUP is the other routes' warm-up, load.ts). A rule that stopped once
 * two windows were no cheaper than the best before them stopped after 10–12 s on this machine's noise
 * (a window moves by ±20 %), still on the slope.
 */
const SECONDS_PER_PROCESS = Number(process.env.BENCH_MIX_WARMUP ?? 10);

export interface WarmUp {
  /** CPU milliseconds a response, per window. */
  curve: number[];
  seconds: number;
}

/** Drives `next` for SECONDS_PER_PROCESS × processes in windows of WINDOW_SECONDS, with the server's CPU a response in each. */
export async function warmUp(
  port: number,
  pids: number[],
  processes: number,
  connections: number,
  next: (conn: number) => Req & { token?: string },
): Promise<WarmUp> {
  const curve: number[] = [];
  const seconds = Math.max(WINDOW_SECONDS, SECONDS_PER_PROCESS * processes);
  for (let t = 0; t < seconds; t += WINDOW_SECONDS) {
    const { value, cpuSeconds } = await withCpu(pids, () => drive(port, WINDOW_SECONDS, connections, next));
    curve.push((cpuSeconds * 1000) / Math.max(1, value.responses));
  }
  return { curve, seconds };
}

export function describeWarmUp(w: WarmUp): string {
  return `warm-up, read mix for ${w.seconds} s: ${w.curve.map((x) => x.toFixed(2)).join(', ')} ms of CPU a response (${WINDOW_SECONDS} s windows)`;
}
