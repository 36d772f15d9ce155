/**
 * Searches known to match more than countedMatches.max (users/index-statements.ts), kept to spare a
 * broader search its count. A search inside a scope, or with more words, matches a subset of the same
 * search outside it, or with fewer words: if the subset is past the cap, so is the broader one, and it
 * needs no count. At 1M users an unscoped search's capped count cost PostgreSQL 49 ms a call under
 * the read mix (26 % of its statement time), and a university's single-word searches, which pass the
 * cap, already name most of the words an unscoped search asks for (docs/benchmark.md, session 20).
 * PostgreSQL 15 visits the heap page of every match it counts, so no index makes that count cheaper.
 */
import type { Db } from '../db/client';
import { currentStamp, type Table } from '../lib/freshness';
import { perDb } from '../lib/per-db';
import type { ListFilter } from './list';

interface Capped {
  f: ListFilter;
  /** What the search's count followed (list.ts countedTables) and their versions when it was counted. */
  tables: readonly Table[];
  stamp: string;
}

/** At most this many per database, newest first: a few random searches' worth of words times scopes. */
const MAX = 256;
const known = perDb(() => [] as Capped[]);

/** How many counts were spared (tests read it). */
export const cappedSearches = { spared: 0 };

/** `word` begins every word `narrow` matches: the same word, or a prefix of a word without punctuation (whose pieces are phrases). */
const covers = (word: string, narrow: string) => word === narrow || (/^[\p{L}\p{N}]+$/u.test(narrow) && narrow.startsWith(word));

/** Every user `narrow` finds, `broad` finds too. */
export function includes(broad: ListFilter, narrow: ListFilter): boolean {
  if (broad.userType !== undefined && broad.userType !== narrow.userType) return false;
  if (broad.membershipStatus !== undefined && broad.membershipStatus !== narrow.membershipStatus) return false;
  if (broad.isActive !== undefined && broad.isActive !== narrow.isActive) return false;
  if (!broad.words.every((w) => narrow.words.some((n) => covers(w, n)))) return false;
  if (broad.paths === null) return true;
  // Materialised paths: a subtree lies in another when its path begins with the other's.
  return narrow.paths !== null && narrow.paths.every((p) => broad.paths!.some((b) => p.startsWith(b)));
}

/**
 * Whether a search kept here includes none but users `f` finds and still matches more than the cap: its
 * tables unchanged since it was counted, its matches are still the ones counted.
 */
export async function provenCapped(db: Db, f: ListFilter): Promise<boolean> {
  if (f.words.length === 0) return false;
  for (const c of known(db))
    if (includes(f, c.f) && (await currentStamp(db, c.tables)) === c.stamp) {
      cappedSearches.spared++;
      return true;
    }
  return false;
}

/** Keeps a search whose count reached the cap under `stamp` (the versions read before counting), if nothing changed since. */
export async function rememberCapped(db: Db, f: ListFilter, tables: readonly Table[], stamp: string): Promise<void> {
  if ((await currentStamp(db, tables)) !== stamp) return;
  const list = known(db);
  list.unshift({ f, tables, stamp });
  if (list.length > MAX) list.length = MAX;
}
