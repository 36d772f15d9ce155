/** WEB_CONCURRENCY=1 (or an in-memory database): one process migrates, seeds, serves and runs the jobs, as before the cluster. */
import { serve } from '@hono/node-server';
import { createApp } from '../app';
import type { Db } from '../db/client';
import { closeAppDb } from '../db/open';
import type { Env } from '../env';
import { startWorker } from '../lib/worker-pool';
import { seed } from '../seed/seed';
import { printBanner } from './banner';
import { startJobs } from './jobs';

export async function runSingle(env: Env, db: Db): Promise<void> {
  // Imports and exports run in a worker thread (issue 12): it loads while the seed runs, and listening
  // once it is loaded spares the first import the wait.
  const workerLoaded = startWorker({ db, env });
  const seeded = await seed(db, env);
  const app = createApp({ db, env });
  await workerLoaded;
  let stopJobs = () => {};

  const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
    void startJobs({ db, env }, info.port).then((stop) => {
      stopJobs = stop;
      printBanner(env, info.port, seeded.admin);
    });
  });

  function shutdown() {
    stopJobs();
    server.close();
    void closeAppDb(db).finally(() => process.exit(0));
  }
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
