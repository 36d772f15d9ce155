/**
 * One API process of the cluster (primary.ts forks WEB_CONCURRENCY of them): it opens its own
 * connection to the file the primary migrated and seeded, starts its own import/export thread, and
 * serves the connections the primary hands it (dispatch.ts); it does not listen itself. It neither
 * migrates, seeds nor prints the banner. Every worker starts the periodic jobs; their leases
 * (lib/lease.ts) let one process at a time run each of them.
 */
import { createAdaptorServer } from '@hono/node-server';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { createApp } from '../app';
import { closeAppDb, openAppDb } from '../db/open';
import { isPg } from '../db/postgres';
import type { Env } from '../env';
import { startWorker } from '../lib/worker-pool';
import { countWrites } from '../lib/writer-gate';
import { DRAINING, READY, TAKE, TOOK, type Message } from './dispatch';
import { DRAIN_GRACE_MS, drainServer, trackConnections } from './drain';
import { startJobs } from './jobs';

export async function runWorker(env: Env): Promise<void> {
  const db = openAppDb(env);
  const deps = { db, env };
  let server: Server | null = null;
  let open = new Set<Socket>();
  let stopJobs = () => {};
  let draining = false;
  const tell = (m: Message) => process.send?.(m);

  const drain = async () => {
    if (draining) return;
    draining = true;
    tell({ cmd: DRAINING });
    // Gives the job leases up, so another process takes them over at once.
    stopJobs();
    // Still starting (a replacement told to stop at once): nothing is in flight.
    if (server) await drainServer(server, open, DRAIN_GRACE_MS);
    await closeAppDb(db);
    process.exit(0);
  };
  // The primary's SIGTERM, an operator's (a rolling restart), or Ctrl-C, which reaches every process of the terminal's group.
  process.on('SIGINT', () => void drain());
  process.on('SIGTERM', () => void drain());

  if (!isPg(db)) countWrites(db.$client);
  const workerLoaded = startWorker(deps);
  const app = createApp(deps);
  await workerLoaded;
  server = createAdaptorServer({ fetch: app.fetch }) as Server;
  open = trackConnections(server);
  // Node's HTTP server starts its request and header timeouts' watch when it listens.
  server.emit('listening');
  process.on('message', (m: Message, socket?: Socket) => {
    if (m?.cmd !== TAKE) return;
    if (draining || !socket) {
      // The primary still holds the connection and hands it to another worker.
      tell({ cmd: TOOK, id: m.id, taken: false });
      socket?.destroy();
      return;
    }
    tell({ cmd: TOOK, id: m.id, taken: true });
    server!.emit('connection', socket);
  });
  if (draining) return;
  stopJobs = await startJobs(deps, env.PORT);
  tell({ cmd: READY });
}
