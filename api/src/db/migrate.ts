import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { resolve } from 'node:path';
import { REPO_ROOT } from '../env';
import type { Db } from './client';

export const MIGRATIONS_FOLDER = resolve(REPO_ROOT, 'api/drizzle');

export function runMigrations(db: Db): void {
  migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
}
