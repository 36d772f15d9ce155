import { normalizeText } from '@doanhoi/shared';
import { sql, type SQL } from 'drizzle-orm';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
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
 * SQLite-only: the FTS5 index of migration 0003_perf_triggers, kept in step by triggers. One row
 * per user (rowid = users.id): `search_text` holds the search words, `orgs` a token "o<id>" per
 * organization the user is an active member of and per ancestor of it. Not part of db/schema.ts
 * (drizzle-kit cannot create virtual tables); declared here only to query it with the builder.
 */
export const usersIndex = sqliteTable('users_fts', { rowid: integer(), searchText: text(), orgs: text() });

/** Rows of the index matching the query bound to `placeholder`. */
export function indexMatches(placeholder: string): SQL {
  return sql`${usersIndex} MATCH ${sql.placeholder(placeholder)}`;
}

/** Users whose search words match the query bound to `placeholder` (a condition on users.id). */
export function matchesSearch(placeholder: string): SQL {
  return sql`${users.id} IN (SELECT rowid FROM ${usersIndex} WHERE ${indexMatches(placeholder)})`;
}

/**
 * The index query for search words and/or membership of organizations' subtrees (by the
 * subtrees' root ids); null when it can match nothing.
 */
export function indexQuery(words: string[], subtreeRoots: number[] | null): string | null {
  const parts: string[] = [];
  if (words.length) {
    const q = ftsQuery(words);
    if (q === null) return null;
    parts.push(`search_text : (${q})`);
  }
  if (subtreeRoots) {
    if (subtreeRoots.length === 0) return null;
    parts.push(`orgs : (${subtreeRoots.map((id) => `o${id}`).join(' OR ')})`);
  }
  return parts.join(' AND ');
}
