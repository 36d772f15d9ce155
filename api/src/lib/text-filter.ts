import { normalizeText } from '@doanhoi/shared';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * Substring match on an accent-stripped search column ("cong nghe" finds "Công nghệ"), with
 * LIKE wildcards in the term matched literally. Undefined when the term is empty (no filter). The
 * column and the term are lower-case, so SQLite's case-blind LIKE and PostgreSQL's case-sensitive
 * one match the same rows.
 */
export function searchTextLike(column: SQLWrapper, term: string | undefined): SQL | undefined {
  const needle = normalizeText(term);
  if (!needle) return undefined;
  const pattern = `%${needle.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
  return sql`${column} LIKE ${pattern} ESCAPE '\\'`;
}

/** The key cachedTotal stores a list's total under: one per distinct filter. */
export function filterKey(filters: Record<string, unknown>): string {
  return JSON.stringify(Object.entries(filters).filter(([, v]) => v !== undefined && v !== ''));
}
