import { normalizeText } from '@doanhoi/shared';
import { and, sql, type SQL } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { Database, Statement, Transaction } from 'better-sqlite3';
import type { Db } from '../db/client';
import { users } from '../db/tables/users';
import { onPg } from '../db/dialect';
import { isPg } from '../db/postgres';
import { expandedQuery, lastPieces, matchingUserIds, prefixWords, tsQuery, USERS_INDEX, usersMatching } from '../db/pg/search';
import { freshCache } from '../lib/freshness';
import { allRows } from '../db/engine';

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
 * PostgreSQL's users index (drizzle-pg 0007): a row per user, `search_vector` its words and `orgs`
 * the units it is an active member of with their ancestors, under one GIN index. Engine-only, as
 * usersIndex is; declared here only to query it with the builder.
 */
export const pgUsersIndex = sqliteTable(USERS_INDEX, { id: integer(), searchVector: text(), orgs: text() });

/**
 * What the 'index' strategy (users/list.ts) binds for search words and/or membership of subtrees
 * (by their roots' ids): SQLite's FTS5 query as `match`; PostgreSQL's tsquery as `match` and the
 * roots as `roots`. Null when it can match nothing.
 */
export function indexParams(words: string[], subtreeRoots: number[] | null): Record<string, unknown> | null {
  if (!onPg()) {
    const match = indexQuery(words, subtreeRoots);
    return match === null ? null : { match };
  }
  const p: Record<string, unknown> = {};
  if (words.length) {
    const match = tsQuery(words);
    if (match === null) return null;
    p.match = match;
  }
  if (subtreeRoots) {
    if (subtreeRoots.length === 0) return null;
    p.roots = subtreeRoots;
  }
  return p;
}

/**
 * The version a search's matches follow: 'users:words' when no piece of its words begins with a
 * digit — left alone when only words beginning with a digit change at the end of search_text, a phone
 * number (drizzle-pg 0015; SQLite 0051: words made of digits after a space), and no such search can
 * match them — else 'users:search', which every change of the search words moves.
 */
export function searchVersion(words: string[]): 'users:words' | 'users:search' {
  return words.every((w) => w.split(/[^\p{L}\p{N}]+/u).every((piece) => !/^[0-9]/.test(piece))) ? 'users:words' : 'users:search';
}

// The words a prefix stands for, per prefix: search_words only grows, and only with the version its first character follows.
const expansions = {
  'users:words': freshCache<string[]>(5_000, ['users:words']),
  'users:search': freshCache<string[]>(5_000, ['users:search']),
};

/**
 * On PostgreSQL, a list's `match` with each word's prefix spelled out as the indexed words it
 * begins (db/pg/search.ts expandedQuery): the same users, found through posting lists. Each
 * prefix's words are kept on their own, so a phone change or a new search of known words sends no
 * statement. Changes `params` in place; SQLite's FTS5 walks prefixes in its own index already.
 */
export async function expandPrefixes(db: Db, words: string[], params: Record<string, unknown>): Promise<void> {
  if (!onPg() || params.match === undefined || words.length === 0) return;
  const lasts = lastPieces(words);
  if (lasts.some((p) => p === undefined)) return;
  // The app's PostgreSQL Db is drizzle's node-postgres database behind the Db type (db/postgres.ts).
  const pgDb = db as unknown as NodePgDatabase;
  const found = new Map<string, string[]>();
  await Promise.all(
    [...new Set(lasts as string[])].map(async (prefix) => {
      const cache = expansions[searchVersion([prefix])];
      found.set(prefix, await cache.get(db, prefix, async () => (await prefixWords(pgDb, [prefix])).get(prefix) ?? []));
    }),
  );
  const expanded = expandedQuery(words, found);
  if (expanded !== null) params.match = expanded;
}

/** The index rows matching indexParams' values: SQLite's MATCH, or PostgreSQL's words and units through one GIN index. */
export function indexCondition(words: boolean, scoped: boolean): SQL | undefined {
  if (!onPg()) return indexMatches('match');
  const conds: SQL[] = [];
  if (words) conds.push(sql`${pgUsersIndex.searchVector} @@ ${sql.placeholder('match')}::tsquery`);
  if (scoped) conds.push(sql`${pgUsersIndex.orgs} && ${sql.placeholder('roots')}::int[]`);
  return conds.length ? and(...conds) : undefined;
}

/**
 * SQLite-only: the FTS5 index of migration 0003_perf_triggers (brought up to date by
 * syncUsersIndex before each read). One row
 * per user (rowid = users.id): `search_text` holds the search words, `orgs` a token "o<id>" per
 * organization the user is an active member of and per ancestor of it. Not part of db/tables/
 * (drizzle-kit cannot create virtual tables); declared here only to query it with the builder.
 */
export const usersIndex = sqliteTable('users_fts', { rowid: integer(), searchText: text(), orgs: text() });

interface Sync {
  pending: Statement<[], number>;
  apply: Transaction<() => void>;
  checked: boolean;
}

/**
 * FTS5 drops a merged segment's pages with `DELETE FROM users_fts_data WHERE id>=? AND id<=?`.
 * An ANALYZE run while the index was empty records that table's 2 rows, and below 10 rows the
 * planner scans the whole table for such a range: on the 100k-user bench every merge step then read
 * the full index 16 times (about 120 ms every 16th write, 8 ms a write on average instead of 0.2).
 * FTS5 reaches this table only by key, so statistics can only mislead it: when they make this
 * connection scan, they get the table's real count (at least 10) and the connection reloads them.
 */
function keepIndexSeeking(c: Database): void {
  const plan = c.prepare('EXPLAIN QUERY PLAN SELECT id FROM users_fts_data WHERE id >= ? AND id <= ?').all(0, 0) as { detail: string }[];
  if (!plan.some((step) => step.detail.startsWith('SCAN'))) return;
  c.prepare(
    `UPDATE sqlite_stat1 SET stat = CAST(max((SELECT count(*) FROM users_fts_data), 10) AS TEXT)
     WHERE tbl = 'users_fts_data' AND idx IS NULL AND CAST(stat AS INTEGER) < 10`,
  ).run();
  // Another process may have raised them already; either way this connection reloads them.
  c.exec('ANALYZE sqlite_schema');
}
const syncs = new WeakMap<Db, Sync>();

/**
 * Brings the index up to date with the users queued by triggers (users_fts_pending): a few
 * microseconds when nothing is queued, otherwise one statement per step for all queued users, so
 * FTS5 writes one segment however many rows an import or a membership change touched. Called
 * before every read of the index, which therefore is exact.
 */
export function syncUsersIndex(db: Db): void {
  // PostgreSQL's users_index is kept by triggers within the writing statement: no queue.
  if (isPg(db)) return;
  let s = syncs.get(db);
  if (!s) {
    const c = db.$client;
    const drop = c.prepare('DELETE FROM users_fts WHERE rowid IN (SELECT user_id FROM users_fts_pending)');
    const fill = c.prepare(
      `INSERT INTO users_fts (rowid, search_text, orgs)
       SELECT u.id, u.search_text,
         (SELECT coalesce(group_concat('o' || replace(trim(o.path, '/'), '/', ' o'), ' '), '')
          FROM organization_members m JOIN organizations o ON o.id = m.organization_id
          WHERE m.user_id = u.id AND m.is_active = 1)
       FROM users u WHERE u.id IN (SELECT user_id FROM users_fts_pending) ORDER BY u.id`,
    );
    const clear = c.prepare('DELETE FROM users_fts_pending');
    s = {
      pending: c.prepare<[], number>('SELECT count(*) FROM (SELECT 1 FROM users_fts_pending LIMIT 1)').pluck(),
      apply: c.transaction(() => {
        drop.run();
        fill.run();
        clear.run();
      }),
      checked: false,
    };
    syncs.set(db, s);
  }
  // pluck() again: the connection may hand this statement out elsewhere, which resets its mode (db/statement-cache.ts).
  if (s.pending.pluck().get()) s.apply();
  // After the first sync, so that the count is the built index's.
  if (!s.checked) {
    keepIndexSeeking(db.$client);
    s.checked = true;
  }
}

/** Rows of the index matching the query bound to `placeholder`. */
export function indexMatches(placeholder: string): SQL {
  return sql`${usersIndex} MATCH ${sql.placeholder(placeholder)}`;
}

/**
 * The ids of the users matching search words, ascending (every user without words), for a read
 * run once (an export): the list's rule. Fetched once, not made a condition of every page: a keyset page `id > last AND id IN
 * (matches)` rebuilt every match on SQLite and, on PostgreSQL, walked users_index from its first id
 * (the bound on users.id is not carried into the subquery), so an export's cost grew with the square
 * of its length (an 83,725-user search of the 1M bench: 23 s on SQLite, 78 s on PostgreSQL).
 */
export async function matchingIds(db: Db, words: string[]): Promise<number[]> {
  if (onPg()) return await matchingUserIds(db as unknown as NodePgDatabase, words);
  // As PostgreSQL's: no words, every user.
  if (words.length === 0) return (await allRows(db.select({ id: users.id }).from(users).orderBy(users.id))).map((r) => r.id);
  const q = indexQuery(words, null);
  if (q === null) return [];
  syncUsersIndex(db);
  const rows = await allRows(
    db
      .select({ id: usersIndex.rowid })
      .from(usersIndex)
      .where(sql`${usersIndex} MATCH ${q}`)
      .orderBy(usersIndex.rowid),
  );
  return rows.map((r) => r.id!);
}

/** Users whose search words match the query (searchQuery) bound to `placeholder`. */
export function matchesSearch(placeholder: string): SQL {
  if (onPg()) return usersMatching(sql`${sql.placeholder(placeholder)}`);
  return sql`${users.id} IN (SELECT rowid FROM ${usersIndex} WHERE ${indexMatches(placeholder)})`;
}

/** The query matchesSearch binds for search words: FTS5's or PostgreSQL's tsquery; null when it can match nothing. */
export function searchQuery(words: string[]): string | null {
  return onPg() ? tsQuery(words) : indexQuery(words, null);
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
