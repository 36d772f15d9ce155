import type { Env } from '../env';
import { isPostgresUrl, redactUrl } from '../db/postgres';
import { payosBanner } from '../payos/origin';
import type { seedAdmin } from '../seed/seed';

export type SeededAdmin = Awaited<ReturnType<typeof seedAdmin>>;

/**
 * The banner is for the person who ran `npm start` (plain text, not the JSON log stream), printed
 * once per deployment; the generated admin password is shown this once and never logged.
 */
export function printBanner(env: Env, port: number, admin: SeededAdmin, processes = 1): void {
  const url = env.PUBLIC_URL ?? `http://localhost:${port}`;
  console.log(`\nDoan Hoi Admin is running at ${url}`);
  console.log(`  Database: ${isPostgresUrl(env.DATABASE_URL) ? `PostgreSQL ${redactUrl(env.DATABASE_URL)}` : env.DATABASE_PATH}`);
  if (processes > 1) console.log(`  Workers:  ${processes} API processes (WEB_CONCURRENCY)`);
  if (admin.generatedPassword) {
    console.log(`  Sign in:  ${admin.email} / ${admin.generatedPassword}   (generated now and shown only once)`);
  } else if (admin.created) {
    console.log(`  Sign in:  ${admin.email} / (the ADMIN_PASSWORD you set)`);
  } else {
    console.log(`  Sign in:  ${admin.email} (password as set when the database was created)`);
  }
  console.log(payosBanner(env));
  if (env.SEED_DEMO)
    console.log('  Demo:     canbo.cntt@doanhoi.local / canbo123 (faculty union admin), member@doanhoi.local / member123 (member)');
}
