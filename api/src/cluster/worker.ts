/**
 * One API process of the cluster (primary.ts forks WEB_CONCURRENCY of them): it opens its own
 * connection to the file the primary migrated and seeded, starts its own import/export thread, and
 * listens on the shared port (node:cluster hands it connections). It neither migrates, seeds nor
 * prints the banner. Every worker starts the periodic jobs; their leases (lib/lease.ts) let one
 * process at a time run each of them.
 */
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import { createApp } from '../app';
import { openDb } from '../db/client';
import type { Env } from '../env';
import { startWorker } from '../lib/worker-pool';
import { countWrites } from '../lib/writer-gate';
import { DRAIN_GRACE_MS, drainServer } from './drain';
import { startJobs } from './jobs';

export async function runWorker(env: Env): Promise<void> {
  const db = openDb(env.DATABASE_PATH);
  const deps = { db, env };
  let server: Server | null = null;
  let stopJobs = () => {};
  let draining = false;

  const drain = async () => {
    if (draining) return;
    draining = true;
    // Gives the job leases up, so another process takes them over at once.
    stopJobs();
    // Still starting (a replacement told to stop at once): nothing is in flight.
    if (server) await drainServer(server, DRAIN_GRACE_MS);
    db.$client.close();
    process.exit(0);
  };
  // The primary's SIGTERM, or Ctrl-C, which reaches every process of the terminal's group.
  process.on('SIGINT', () => void drain());
  process.on('SIGTERM', () => void drain());

  countWrites(db.$client);
  const workerLoaded = startWorker(deps);
  const app = createApp(deps);
  await workerLoaded;
  server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
    if (!draining) stopJobs = startJobs(deps, info.port);
  }) as Server;
}
