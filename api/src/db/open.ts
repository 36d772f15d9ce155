/**
 * The app's database from its configuration: PostgreSQL when DATABASE_URL is postgres://…
 * (issue 29), else the SQLite file at DATABASE_PATH, as before. Sets the dialect of raw SQL for
 * this process (db/dialect.ts).
 */
import type { Env } from '../env';
import { openDb, type Db } from './client';
import { useEngine } from './dialect';
import { runMigrations, runPgMigrations } from './migrate';
import { closePgDb, isPg, isPostgresUrl, openPgDb } from './postgres';

export function openAppDb(env: Env): Db {
  if (isPostgresUrl(env.DATABASE_URL)) {
    useEngine('pg');
    return openPgDb(env.DATABASE_URL, { max: env.PG_POOL_SIZE });
  }
  useEngine('sqlite');
  return openDb(env.DATABASE_PATH);
}

export async function migrateAppDb(env: Env, db: Db): Promise<void> {
  if (isPostgresUrl(env.DATABASE_URL)) await runPgMigrations(env.DATABASE_URL);
  else runMigrations(db);
}

export async function closeAppDb(db: Db): Promise<void> {
  if (isPg(db)) await closePgDb(db);
  else db.$client.close();
}
