/**
 * The cluster's primary (WEB_CONCURRENCY > 1). It has already taken the deployment lock, migrated
 * and seeded (deployment.ts, index.ts); it serves no request itself. It forks the workers, prints
 * the one banner once they all listen, replaces a worker that dies (with a growing pause if they
 * keep dying), and on SIGTERM/SIGINT lets every worker drain before it exits and frees the lock.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Env } from '../env';
import { logger } from '../lib/logger';
import { printBanner, type SeededAdmin } from './banner';
import { DRAIN_GRACE_MS } from './drain';

/** A worker that lived this long before dying was not crash-looping: the next one starts at once. */
const STABLE_MS = 30_000;
const MAX_BACKOFF_MS = 30_000;

/** Pause before replacing the `streak`-th worker in a row that died young: 0, 0.5 s, 1 s, 2 s … 30 s. */
export function restartDelay(streak: number): number {
  return streak <= 1 ? 0 : Math.min(MAX_BACKOFF_MS, 250 * 2 ** (streak - 1));
}

export function runPrimary(env: Env, admin: SeededAdmin): void {
  const wanted = env.WEB_CONCURRENCY;
  const born = new Map<Worker, number>();
  const listening = new Set<Worker>();
  let up = false;
  let stopping = false;
  let streak = 0;
  const fork = () => {
    if (stopping) return;
    born.set(cluster.fork(), Date.now());
  };

  cluster.on('listening', (w, address) => {
    listening.add(w);
    if (!up && listening.size === wanted) {
      up = true;
      printBanner(env, address.port, admin, wanted);
    }
  });

  cluster.on('exit', (w, code, signal) => {
    const lived = Date.now() - (born.get(w) ?? Date.now());
    born.delete(w);
    listening.delete(w);
    if (stopping) {
      if (born.size === 0) process.exit(0);
      return;
    }
    if (!up && signal === null) {
      // As the single process would: a start that cannot listen (port taken, bad HOST) fails. A
      // worker killed by a signal meanwhile is only replaced.
      logger.fatal({ pid: w.process.pid, code, signal }, 'An API worker stopped before the server was up');
      stopping = true;
      for (const other of born.keys()) other.process.kill('SIGKILL');
      process.exit(1);
    }
    streak = lived >= STABLE_MS ? 1 : streak + 1;
    const delay = restartDelay(streak);
    logger.error({ pid: w.process.pid, code, signal, restartInMs: delay }, 'An API worker died; starting another');
    setTimeout(fork, delay);
  });

  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    if (born.size === 0) process.exit(0);
    // A serving worker drains on SIGTERM (worker.ts); one still loading has no handler yet and simply ends.
    for (const w of born.keys()) w.process.kill('SIGTERM');
    // A worker that does not finish (stuck in a long synchronous job) is not waited for forever.
    setTimeout(() => {
      for (const w of born.keys()) w.process.kill('SIGKILL');
      process.exit(0);
    }, DRAIN_GRACE_MS + 5_000).unref();
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  // Connections are handed out round-robin by this process (node's default on Linux). With
  // SCHED_NONE the kernel gave all 20 keep-alive connections of a burst to one worker in one run of
  // three; round-robin's cost: a connection handed to a worker in the instant it is killed hangs.
  for (let i = 0; i < wanted; i++) fork();
}
