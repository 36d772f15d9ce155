import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import * as schema from './schema';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export function openDb(path: string): Db {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  // Statement journals in memory: every trigger statement inside a long write transaction (an
  // import) otherwise writes a temp file, which made the cache-version and member-count triggers
  // cost 0.2 ms a row.
  sqlite.pragma('temp_store = MEMORY');
  return drizzle(sqlite, { schema, casing: 'snake_case' }) as Db;
}
