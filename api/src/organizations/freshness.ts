import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/client';

/**
 * A value that changes whenever the database has been written: SQLite's total_changes() counts the
 * rows this connection inserted, updated or deleted, and data_version moves on commits by other
 * connections. Caches of organization data compare it on each read, because memberships are also
 * written outside this module (users created with an organization, user deletes by cascade,
 * spreadsheet imports, seeds) and those writers do not drop our caches.
 */
const statements = new WeakMap<Db, Statement<[], { c: number; v: number }>>();

export function writeStamp(db: Db): string {
  let stmt = statements.get(db);
  if (!stmt) {
    stmt = db.$client.prepare('SELECT total_changes() AS c, (SELECT data_version FROM pragma_data_version) AS v');
    statements.set(db, stmt);
  }
  const { c, v } = stmt.get()!;
  return `${c}:${v}`;
}
