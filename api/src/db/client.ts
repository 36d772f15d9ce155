import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import * as schema from './schema';
import { cacheStatements } from './statement-cache';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };
/** The handle a `db.transaction(tx => …)` callback receives. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * The database and its WAL hold password hashes and payOS keys: only the server's user may read
 * them. SQLite gives the -wal and -shm files the mode of the database file, so creating that one
 * 0600 (and tightening an older one) covers all three.
 */
function restrictFiles(path: string) {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  for (const f of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
}

/** `path` a file or ':memory:'; or the bytes of a serialized database, opened in memory (the test harness's template). */
export function openDb(path: string | Buffer): Db {
  if (typeof path === 'string' && path !== ':memory:') restrictFiles(path);
  const sqlite = new Database(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  // Statement journals in memory: every trigger statement inside a long write transaction (an
  // import) otherwise writes a temp file, which made the cache-version and member-count triggers
  // cost 0.2 ms a row.
  sqlite.pragma('temp_store = MEMORY');
  cacheStatements(sqlite);
  return drizzle(sqlite, { schema, casing: 'snake_case' }) as Db;
}
