import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { drizzle as pgDrizzle } from 'drizzle-orm/node-postgres';
import { migrate as pgMigrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { resolve } from 'node:path';
import { REPO_ROOT } from '../env';
import type { Db } from './client';

export const MIGRATIONS_FOLDER = resolve(REPO_ROOT, 'api/drizzle');
export const PG_MIGRATIONS_FOLDER = resolve(REPO_ROOT, 'api/drizzle-pg');

export function runMigrations(db: Db): void {
  migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
}

/** PostgreSQL's migrations (api/drizzle-pg), on a connection of their own: drizzle runs them in one transaction. */
export async function runPgMigrations(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await pgMigrate(pgDrizzle({ client, casing: 'snake_case' }), { migrationsFolder: PG_MIGRATIONS_FOLDER });
  } finally {
    await client.end();
  }
}
