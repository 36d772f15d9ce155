import { serve } from '@hono/node-server';
import { createApp } from './app';
import { openDb } from './db/client';
import { runMigrations } from './db/migrate';
import { seed } from './db/seed';
import { loadEnv } from './env';
import { startPaymentJobs } from './payments/jobs';
import { payosBanner } from './payos/origin';

const env = loadEnv();
const db = openDb(env.DATABASE_PATH);
runMigrations(db);
const seeded = await seed(db, env);
const app = createApp({ db, env });
let stopJobs = () => {};

const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
  // The jobs may call this server's own payOS sandbox, so they start once it listens.
  stopJobs = startPaymentJobs({ db, env }, info.port);
  const url = env.PUBLIC_URL ?? `http://localhost:${info.port}`;
  console.log(`\nDoan Hoi Admin is running at ${url}`);
  console.log(`  Database: ${env.DATABASE_PATH}`);
  if (seeded.admin.generatedPassword) {
    console.log(`  Sign in:  ${seeded.admin.email} / ${seeded.admin.generatedPassword}   (generated now and shown only once)`);
  } else if (seeded.admin.created) {
    console.log(`  Sign in:  ${seeded.admin.email} / (the ADMIN_PASSWORD you set)`);
  } else {
    console.log(`  Sign in:  ${seeded.admin.email} (password as set when the database was created)`);
  }
  console.log(payosBanner(env));
  if (env.SEED_DEMO) console.log('  Demo:     canbo.cntt@doanhoi.local / canbo123 (faculty union admin), member@doanhoi.local / member123 (member)');
});

function shutdown() {
  stopJobs();
  server.close();
  db.$client.close();
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
