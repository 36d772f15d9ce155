import { serve } from '@hono/node-server';
import { createApp } from './app';
import { openDb } from './db/client';
import { runMigrations } from './db/migrate';
import { DatabaseLockedError, lockDatabase } from './db/process-lock';
import { seed } from './seed/seed';
import { loadEnv, saveBesideDatabase } from './env';
import { logger } from './lib/logger';
import { ownOrigin, startPaymentJobs } from './payments/jobs';

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
runMigrations(db);
const seeded = await seed(db, env);
const app = createApp({ db, env });
let stopJobs = () => {};

const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
  // The jobs may call this server's own payOS sandbox, so they start once it listens.
  stopJobs = startPaymentJobs({ db, env }, ownOrigin(env, info.port));
  const url = env.PUBLIC_URL ?? `http://localhost:${info.port}`;
  const { email, generatedPassword, created } = seeded.admin;
  const admin = generatedPassword
    ? { email, passwordFile: saveBesideDatabase(env.DATABASE_PATH, 'admin-password', generatedPassword), note: 'generated now; read it from passwordFile, then delete the file' }
    : { email, note: created ? 'password: the ADMIN_PASSWORD you set' : 'password as set when the database was created' };
  logger.info({ url, database: env.DATABASE_PATH, admin }, `Doan Hoi Admin is running at ${url}`);
  if (env.SEED_DEMO) logger.info({ demo: ['canbo.cntt@doanhoi.local (faculty union admin)', 'member@doanhoi.local (member)'] }, 'demo accounts (passwords in the README)');
});

function shutdown() {
  stopJobs();
  server.close();
  db.$client.close();
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
