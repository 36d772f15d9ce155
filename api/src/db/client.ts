import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import * as schema from './schema';
import { cacheStatements } from './statement-cache';

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };
/** The handle a `db.transaction(tx => …)` callback receives. */
export type Tx = Db;

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

/**
 * Every transaction begins IMMEDIATE (drizzle's `db.transaction` asks for DEFERRED). A deferred
 * transaction that reads first holds a read snapshot when it comes to write; if another connection
 * (another API process, the import thread) holds the write lock or has committed since, SQLite
 * answers SQLITE_BUSY at once, without the busy timeout: a member added through one process failed
 * with 500 while the other process wrote (issue 28). IMMEDIATE takes the write lock at BEGIN, where
 * the busy timeout waits for it, and what the body reads is then the latest state (STYLE rule 8).
 * Our transactions all write; none holds a long read.
 */
function beginImmediate(sqlite: Database.Database): void {
  const transaction = sqlite.transaction.bind(sqlite);
  sqlite.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const tx = transaction(fn);
    // better-sqlite3's mode properties cannot be reassigned: a new function carries them.
    const immediate = function (this: unknown, ...args: unknown[]) {
      return tx.immediate.apply(this, args);
    } as unknown as typeof tx;
    const modes = {
      default: immediate,
      deferred: immediate,
      immediate,
      exclusive: tx.exclusive,
      database: (tx as unknown as { database: unknown }).database,
    };
    for (const [k, value] of Object.entries(modes)) Object.defineProperty(immediate, k, { value });
    return immediate;
  }) as typeof sqlite.transaction;
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
  beginImmediate(sqlite);
  return drizzle(sqlite, { schema, casing: 'snake_case' }) as Db;
}
