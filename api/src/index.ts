/**
 * `npm start` runs this bundle. WEB_CONCURRENCY=1 (or an in-memory database): one process does
 * everything. More: this process becomes the cluster's primary, which takes the deployment lock,
 * migrates and seeds once, then forks that many API workers sharing the port (api/src/cluster/).
 */
import cluster from 'node:cluster';
import { prepareDeployment } from './cluster/deployment';
import { runPrimary } from './cluster/primary';
import { runSingle } from './cluster/single';
import { runWorker } from './cluster/worker';
import { loadEnv } from './env';
import { seed } from './seed/seed';
import { closeAppDb } from './db/open';

const env = loadEnv();
if (cluster.isWorker) {
  await runWorker(env);
} else {
  const db = await prepareDeployment(env);
  if (env.WEB_CONCURRENCY === 1 || (env.DATABASE_PATH === ':memory:' && !env.DATABASE_URL)) {
    await runSingle(env, db);
  } else {
    const seeded = await seed(db, env);
    // The workers open their own connections; the primary serves nothing and needs none.
    await closeAppDb(db);
    runPrimary(env, seeded.admin);
  }
}
