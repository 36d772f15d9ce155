/**
 * Users search on PostgreSQL (issue 29 item 4): the same contract as SQLite's FTS5 search
 * (users/search.ts). Migration 0007_users_index keeps `users_index`: per user a tsvector over the
 * app-written, accent-stripped `search_text` (shared normalizeText) and the units it is an active
 * member of with their ancestors, under one GIN index, as FTS5's rows carry both; docs/decisions.md.
 *
 * The vector is built by users_search_vector(), not by to_tsvector(): PostgreSQL's parser keeps
 * "quyet.nv@hcmus.edu.vn" as one e-mail token and "a-b" as three, where FTS5's unicode61 splits
 * at every character that is not a letter or digit. The SQL function splits the same way and
 * numbers the pieces 1, 2, 3…, so a word FTS5 sees as a phrase is a phrase here too.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { users } from './tables/users';

/** The engine-only tables migrations 0007–0009 add (not in the pg table set, as SQLite's FTS5 tables are not in its set). */
export const USERS_INDEX = 'users_index';
export const MEMBER_SCOPES = 'member_scopes';
export const SEARCH_WORDS = 'search_words';

/** The users whose words match the tsquery `q` (SQL: a bound value or a placeholder). */
export const usersMatching = (q: SQL) =>
  sql`${users.id} IN (SELECT id FROM ${sql.identifier(USERS_INDEX)} WHERE search_vector @@ ${q}::tsquery)`;

/**
 * The tsquery for search words (already normalised, users/list.ts searchWords): every word must
 * begin a word of the name, code, e-mail or phone; a word split by punctuation ("quyet.nv") must
 * match its pieces in a row, the last one as a prefix, as ftsQuery's `"quyet nv"*` does in FTS5.
 * Null: a word with no letter or digit, which nothing can match.
 */
export function tsQuery(words: string[]): string | null {
  return buildTsQuery(words, (t) => `'${t}':*`);
}

const pieces = (word: string) => word.split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** Each word's pieces in a row, its last piece written by `last`; null for a word with no letter or digit. */
function buildTsQuery(words: string[], last: (piece: string) => string): string | null {
  const parts: string[] = [];
  for (const w of words) {
    const tokens = pieces(w);
    if (tokens.length === 0) return null;
    // Letters and digits only: no quote or backslash needs escaping inside the quotes.
    parts.push(tokens.map((t, i) => (i === tokens.length - 1 ? last(t) : `'${t}'`)).join(' <-> '));
  }
  return parts.map((p) => `(${p})`).join(' & ');
}

/** Past this many words beginning with one prefix, the prefix query is cheaper than their alternatives. */
const MAX_EXPANSION = 64;

type PgDb = NodePgDatabase<Record<string, unknown>>;

/** The piece of each word that is matched as a prefix (its last); undefined for a word with no letter or digit. */
export const lastPieces = (words: string[]) => words.map((w) => pieces(w).at(-1));

/**
 * The indexed words each prefix begins (search_words, drizzle-pg 0009), in byte order, at most
 * MAX_EXPANSION + 1 of them: one statement for all the prefixes.
 */
export async function prefixWords(db: PgDb, prefixes: string[]): Promise<Map<string, string[]>> {
  if (prefixes.length === 0) return new Map();
  const { rows } = await db.execute<{ prefix: string; words: string[] }>(
    sql`SELECT p AS prefix, ARRAY(SELECT word FROM ${sql.identifier(SEARCH_WORDS)} WHERE word >= p AND word < p || chr(1114111) ORDER BY word LIMIT ${MAX_EXPANSION + 1}) AS words
        FROM jsonb_array_elements_text(${JSON.stringify(prefixes)}::jsonb) p`,
  );
  return new Map(rows.map((r) => [r.prefix, r.words]));
}

/**
 * tsQuery with each word's last piece spelled out as the indexed words it begins (`found`, from
 * prefixWords): 'nguyen':* becomes 'nguyen' | 'nguyenx', which GIN intersects with the rest of the
 * query (a scope's units) posting list by posting list, where a prefix first collects every user of
 * every matching word. The same users match. A prefix beginning no word, or too many, stays a prefix.
 */
export function expandedQuery(words: string[], found: Map<string, string[]>): string | null {
  return buildTsQuery(words, (t) => {
    const all = found.get(t) ?? [];
    if (all.length === 0 || all.length > MAX_EXPANSION) return `'${t}':*`;
    return all.length === 1 ? `'${all[0]}'` : `(${all.map((w) => `'${w}'`).join(' | ')})`;
  });
}

/** expandedQuery with the words looked up now: one statement for all the words. */
export async function expandedTsQuery(db: PgDb, words: string[]): Promise<string | null> {
  const lasts = lastPieces(words);
  if (lasts.some((t) => t === undefined)) return null;
  return expandedQuery(words, await prefixWords(db, lasts as string[]));
}

/**
 * Users matching search words, the query bound as a value: undefined without words (no
 * restriction), false when a word can match nothing — SQLite's searchCondition, minus its index
 * sync: the index's triggers keep it current within the writing statement.
 */
export function searchCondition(words: string[]): SQL | undefined {
  if (words.length === 0) return undefined;
  const q = tsQuery(words);
  if (q === null) return sql`false`;
  return usersMatching(sql`${q}`);
}

/** The ids of the users matching search words, ascending (every user without words); `expanded`: through expandedTsQuery. */
export async function matchingUserIds(db: PgDb, words: string[], expanded = false): Promise<number[]> {
  const q = expanded && words.length ? await expandedTsQuery(db, words) : null;
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(q === null ? searchCondition(words) : usersMatching(sql`${q}`))
    .orderBy(users.id);
  return rows.map((r) => r.id);
}
