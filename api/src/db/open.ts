/**
 * The app's database from its configuration: PostgreSQL when DATABASE_URL is postgres://…
 * (issue 29), else the SQLite file at DATABASE_PATH, as before. Sets the dialect of raw SQL for
 * this process (db/dialect.ts).
 */
import { sql } from 'drizzle-orm';
import type { Env } from '../env';
import { logger } from '../lib/logger';
import { sqlGet } from './engine';
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
  if (!isPostgresUrl(env.DATABASE_URL)) return runMigrations(db);
  await runPgMigrations(env.DATABASE_URL);
  const { collation } = await sqlGet<{ collation: string }>(
    db,
    sql`SELECT datcollate AS collation FROM pg_database WHERE datname = current_database()`,
  );
  // Lists sorted by name follow the database's collation; SQLite's are byte order, as "C" sorts.
  if (!['C', 'POSIX', 'C.UTF-8', 'C.utf8'].includes(collation))
    logger.warn(
      { collation },
      'PostgreSQL database collation is not C: names sort differently than on SQLite (create it with LC_COLLATE C, docs/scaling.md)',
    );
  await warnSmallCache(db);
}

/**
 * A search's count visits the heap page of every match, so the search tables must fit PostgreSQL's
 * own cache: at 1,000,000 users 128MB (the default) served the read mix at half the rate of 2GB
 * (docs/deploy/postgresql.conf). Said at start, when they do not.
 */
async function warnSmallCache(db: Db): Promise<void> {
  const r = await sqlGet<{ cache: string; tables: string }>(
    db,
    sql`SELECT (SELECT setting::bigint * 8192 FROM pg_settings WHERE name = 'shared_buffers') AS cache,
      pg_total_relation_size('users_index') + pg_total_relation_size('member_scopes') AS tables`,
  );
  const [cache, tables] = [Number(r!.cache), Number(r!.tables)];
  if (tables > cache)
    logger.warn(
      { sharedBuffersMb: Math.round(cache / 2 ** 20), searchTablesMb: Math.round(tables / 2 ** 20) },
      'PostgreSQL shared_buffers is smaller than the users search tables: searches will read them from the OS cache (docs/deploy/postgresql.conf)',
    );
}

export async function closeAppDb(db: Db): Promise<void> {
  if (isPg(db)) await closePgDb(db);
  else db.$client.close();
}
