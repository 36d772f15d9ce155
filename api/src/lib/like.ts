/**
 * Substring search with LIKE, wildcards in the user's term matched literally: '%' or '_' typed
 * into a search box used to match every row. ESCAPE '\' reads the same in SQLite and PostgreSQL.
 * Case: SQLite's LIKE ignores ASCII case and PostgreSQL's does not, so both sides must already be
 * lower-case (the accent-stripped search columns and normalizeText's terms are).
 */
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (m) => `\\${m}`);
}

/** `column` contains `word` (already normalised the way the column is). */
export function containsLike(column: SQLWrapper, word: string): SQL {
  return sql`${column} LIKE ${`%${escapeLike(word)}%`} ESCAPE '\\'`;
}
