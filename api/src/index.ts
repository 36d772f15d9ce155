import { serve } from '@hono/node-server';
import { createApp } from './app';
import { openDb } from './db/client';
import { runMigrations } from './db/migrate';
import { DatabaseLockedError, lockDatabase } from './db/process-lock';
import { seed } from './seed/seed';
import { loadEnv, secretFile } from './env';
import { logger } from './lib/logger';
import { checkAppSecret } from './payos/secrets';
import { startPaymentJobs } from './payments/jobs';
import { startReminderJobs } from './reminders/jobs';
import { payosBanner } from './payos/origin';
import { startWorker } from './lib/worker-pool';
import { countWrites } from './lib/writer-gate';

const env = loadEnv();
let releaseLock: () => void;
try {
  releaseLock = lockDatabase(env.DATABASE_PATH);
} catch (err) {
  if (!(err instanceof DatabaseLockedError)) throw err;
  logger.fatal(err.message);
  process.exit(1);
}
process.on('exit', () => releaseLock());
const db = openDb(env.DATABASE_PATH);
// The import worker stands aside between its batches while this thread writes (lib/writer-gate.ts).
countWrites(db.$client);
runMigrations(db);
const secretProblem = env.DATABASE_PATH === ':memory:' ? null : checkAppSecret(db, env, secretFile(env.DATABASE_PATH, 'app'));
if (secretProblem) {
  console.error(secretProblem); // for the operator, in plain text on stderr
  db.$client.close();
  process.exit(1);
}
// Imports and exports run in a worker thread (issue 12): it loads while the seed runs, and listening
// once it is loaded spares the first import the wait.
const workerLoaded = startWorker({ db, env });
const seeded = await seed(db, env);
const app = createApp({ db, env });
await workerLoaded;
let stopJobs = () => {};

const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
  // The jobs may call this server's own payOS sandbox, so they start once it listens.
  const stopPayments = startPaymentJobs({ db, env }, info.port);
  const stopReminders = startReminderJobs({ db, env });
  stopJobs = () => (stopPayments(), stopReminders());
  const url = env.PUBLIC_URL ?? `http://localhost:${info.port}`;
  // The banner is for the person who ran `npm start` (plain text, not the JSON log stream); the generated
  // admin password is shown this once and never logged.
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
  if (env.SEED_DEMO)
    console.log('  Demo:     canbo.cntt@doanhoi.local / canbo123 (faculty union admin), member@doanhoi.local / member123 (member)');
});

function shutdown() {
  stopJobs();
  server.close();
  db.$client.close();
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
