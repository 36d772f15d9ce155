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

const env = loadEnv();
if (/^postgres(ql)?:/.test(env.DATABASE_URL ?? '')) {
  // Serving the SQLite file while the operator believes the deployment is on PostgreSQL would split the data.
  console.error(
    'DATABASE_URL names a PostgreSQL database, but the API serves only SQLite so far (db:copy, backup and restore already ' +
      'work on PostgreSQL; docs/scaling.md). Unset DATABASE_URL to serve DATABASE_PATH.',
  );
  process.exit(1);
}
if (cluster.isWorker) {
  await runWorker(env);
} else {
  const db = await prepareDeployment(env);
  if (env.WEB_CONCURRENCY === 1 || env.DATABASE_PATH === ':memory:') {
    await runSingle(env, db);
  } else {
    const seeded = await seed(db, env);
    // The workers open their own connections; the primary serves nothing and needs none.
    db.$client.close();
    runPrimary(env, seeded.admin);
  }
}
