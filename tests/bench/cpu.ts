/**
 * Server CPU time, the figure a shared machine does not move much: other work slows a request but bills
 * it no CPU. utime + stime (fields 14 and 15 of /proc/<pid>/stat, all threads of the process, GC and
 * worker threads included) summed over a server process and every process beneath it (the cluster's
 * primary and its workers), read before and after a measured phase. Several roots add up: the API
 * server and, on PostgreSQL, the postmaster's tree (its backends do the queries' work; pg.ts).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The process and its descendants, found through /proc/<pid>/task/<tid>/children. */
export function processTree(root: number): number[] {
  const seen: number[] = [];
  const todo = [root];
  while (todo.length) {
    const pid = todo.pop()!;
    seen.push(pid);
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // gone meanwhile
    }
    for (const tid of tasks) {
      try {
        const kids = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
        if (kids) todo.push(...kids.split(/\s+/).map(Number));
      } catch {
        /* thread ended meanwhile */
      }
    }
  }
  return seen;
}

/** utime + stime of one process in seconds, or 0 when it is gone. */
function processCpu(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces or parentheses: count fields after its closing one.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(rest[11]) + Number(rest[12])) / TICKS_PER_SECOND; // rest[0] is field 3
  } catch {
    return 0;
  }
}

export interface CpuSample {
  /** CPU seconds per pid at the time of the sample. */
  perPid: Map<number, number>;
}

export function sampleCpu(root: number | number[]): CpuSample {
  const pids = [root].flat().flatMap((r) => processTree(r));
  return { perPid: new Map(pids.map((pid) => [pid, processCpu(pid)])) };
}

/**
 * CPU seconds the tree spent between two samples. A process that appears only in `after` (a worker
 * started meanwhile) counts from zero; one that died meanwhile loses what it spent since `before`.
 */
export function cpuBetween(before: CpuSample, after: CpuSample): number {
  let total = 0;
  for (const [pid, t] of after.perPid) total += t - (before.perPid.get(pid) ?? 0);
  return total;
}

/** Runs `phase` and returns its result with the trees' CPU seconds and how many processes they held. */
export async function withCpu<T>(
  root: number | number[],
  phase: () => Promise<T>,
): Promise<{ value: T; cpuSeconds: number; processes: number }> {
  const before = sampleCpu(root);
  const value = await phase();
  const after = sampleCpu(root);
  return { value, cpuSeconds: cpuBetween(before, after), processes: after.perPid.size };
}
