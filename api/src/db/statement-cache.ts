/**
 * Prepared statements kept per connection, by SQL text. drizzle prepares every query it runs, and
 * preparing was a tenth of the request thread's time under the realistic mix (issue 12). A
 * statement handed out again is put back in its default row mode first (pluck/expand/raw are
 * sticky per statement), and one still busy (an open iterator) is never shared.
 *
 * SQLite-only: better-sqlite3's Statement objects.
 */
import type { Database, Statement } from 'better-sqlite3';

const MAX_STATEMENTS = 500;

export function cacheStatements(sqlite: Database): void {
  const prepare = sqlite.prepare.bind(sqlite) as (source: string) => Statement;
  const kept = new Map<string, Statement>();
  sqlite.prepare = ((source: string) => {
    const stmt = kept.get(source);
    if (stmt && !stmt.busy) {
      // Most recently used last, so the oldest is the first to go.
      kept.delete(source);
      kept.set(source, stmt);
      if (stmt.reader) stmt.raw(false).pluck(false).expand(false);
      return stmt;
    }
    const fresh = prepare(source);
    if (!stmt) {
      kept.set(source, fresh);
      if (kept.size > MAX_STATEMENTS) kept.delete(kept.keys().next().value!);
    }
    return fresh;
  }) as typeof sqlite.prepare;
}
