/**
 * The cluster's primary (WEB_CONCURRENCY > 1). It has already taken the deployment lock, migrated
 * and seeded (deployment.ts, index.ts); it answers no request itself. It listens and hands each
 * connection to a worker (dispatch.ts), forks the workers, prints the one banner once they are all
 * ready, replaces a worker that dies (with a growing pause if they
 * keep dying), and on SIGTERM/SIGINT lets every worker drain before it exits and frees the lock.
 */
import cluster, { type Worker } from 'node:cluster';
import type { AddressInfo } from 'node:net';
import type { Env } from '../env';
import { logger } from '../lib/logger';
import { printBanner, type SeededAdmin } from './banner';
import { frontDoor } from './dispatch';
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
  const readied = new Set<Worker>();
  let up = false;
  let stopping = false;
  let streak = 0;
  let port = env.PORT;
  const fork = () => {
    if (stopping) return;
    // The real port (PORT=0 picks one): the jobs call this server's own payOS sandbox.
    born.set(cluster.fork({ PORT: String(port) }), Date.now());
  };

  const door = frontDoor((w) => {
    readied.add(w);
    if (!up && readied.size === wanted) {
      up = true;
      printBanner(env, port, admin, wanted);
    }
  });
  door.server.on('error', (err) => {
    // As the single process would: a start that cannot listen (port taken, bad HOST) fails.
    logger.fatal({ err }, 'The API cannot listen');
    stopping = true;
    for (const w of born.keys()) w.process.kill('SIGKILL');
    process.exit(1);
  });

  cluster.on('exit', (w, code, signal) => {
    const lived = Date.now() - (born.get(w) ?? Date.now());
    born.delete(w);
    readied.delete(w);
    if (stopping) {
      if (born.size === 0) process.exit(0);
      return;
    }
    if (!up && signal === null && code !== 0) {
      // A worker that cannot start (a broken file, bad configuration) fails the start. A worker
      // killed by a signal meanwhile is only replaced.
      logger.fatal({ pid: w.process.pid, code, signal }, 'An API worker stopped before the server was up');
      stopping = true;
      for (const other of born.keys()) other.process.kill('SIGKILL');
      process.exit(1);
    }
    streak = lived >= STABLE_MS ? 1 : streak + 1;
    const delay = restartDelay(streak);
    // Exit 0: drained after its own SIGTERM (a rolling restart); anything else died.
    const what = code === 0 && signal === null ? 'An API worker stopped; starting another' : 'An API worker died; starting another';
    logger.error({ pid: w.process.pid, code, signal, restartInMs: delay }, what);
    setTimeout(fork, delay);
  });

  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    // New connections are refused from now on; those in flight finish in their workers.
    door.close();
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

  door.server.listen(env.PORT, env.HOST, () => {
    port = (door.server.address() as AddressInfo).port;
    for (let i = 0; i < wanted; i++) fork();
  });
}
