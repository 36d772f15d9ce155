import { normalizeText } from '@doanhoi/shared';
import { sql, type SQL } from 'drizzle-orm';
import { users } from './schema';

/** The accent-stripped text the users list searches ("nguyen van" finds "Nguyễn Văn"). */
export function userSearchText(u: { familyName: string; givenName: string; code: string; email: string; phone?: string | null }): string {
  return normalizeText(`${u.familyName} ${u.givenName} ${u.code} ${u.email} ${u.phone ?? ''}`);
}

/**
 * The FTS5 query for search words (already normalised): every word must begin a word of the
 * name, code, e-mail or phone (docs/decisions.md). A word the index splits ("quyet.nv@hcmus")
 * must match those pieces in a row, the last one as a prefix. Null: a word with no letter or
 * digit, which nothing can match.
 */
export function ftsQuery(words: string[]): string | null {
  const parts: string[] = [];
  for (const w of words) {
    const tokens = w.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    if (tokens.length === 0) return null;
    parts.push(`"${tokens.join(' ')}"*`);
  }
  return parts.join(' ');
}

/**
 * SQLite-only: users whose search text matches the FTS5 query bound to `placeholder`
 * (users_fts is the word index of migration 0003_perf_triggers, kept in step by triggers).
 */
export function matchesSearch(placeholder: string): SQL {
  return sql`${users.id} IN (SELECT rowid FROM users_fts WHERE users_fts MATCH ${sql.placeholder(placeholder)})`;
}
