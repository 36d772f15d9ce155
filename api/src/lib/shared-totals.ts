/**
 * Totals that cost the database a lot to count, shared by every process of a deployment through the
 * table shared_totals. Each process keeps its totals in its own memory (lib/totals.ts), so without
 * this every API process counted the same costly search again: at 1M users a search inside a
 * university (499,193 members) costs PostgreSQL about 25 ms a count even stopped at 10,001 matches
 * (docs/scaling.md). Whoever counts first stores the total; the others read it in their count's own
 * statement (users/index-statements.ts countedPage), which then matches nothing.
 *
 * Exact by the same rule as lib/freshness.ts: a row holds a total with the stamp of the table
 * versions read before it was counted, and is served only to a reader whose current stamp is the
 * same string. A write bumps a version in its own transaction, so a read that began after it reads a
 * newer stamp and misses: the write is seen by the next read in any process. A total counted after
 * its stamp was read holds every write that stamp shows, and perhaps one committed in between,
 * which a reader still holding the older stamp began before. Never inside a transaction, whose own
 * writes the stamp would not show. PostgreSQL only: the caller shares only counts that cost more than
 * storing a row (users/list.ts), and SQLite's processes would queue on its write lock.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../db/client';
import { currentTransaction } from '../db/engine';
import { pgPoolOf } from '../db/postgres';
import { currentStamp, type Table } from './freshness';

/** A page of ids counted together with the total (users/index-statements.ts countedPage). */
export interface SharedPage {
  limit: number;
  offset: number;
  ids: number[];
}

export interface SharedTotal {
  total: number;
  page: SharedPage | null;
}

// A statement of its own on the pool, never a request's transaction, and not counted as this
// process's write (db/engine.ts pgWrites): the table has no version, and nothing cached follows it.
// Committed without waiting for its WAL to reach the disk (imports/session.ts does the same for
// progress): a row lost in a crash is counted again.
const STORE = {
  name: 'shared_total_store',
  text: `WITH unflushed AS (SELECT set_config('synchronous_commit', 'off', true))
    INSERT INTO shared_totals (key, stamp, total, page, stored_at) SELECT $1, $2, $3, $4, $5 FROM unflushed
    ON CONFLICT (key) DO UPDATE SET stamp = excluded.stamp, total = excluded.total, page = excluded.page, stored_at = excluded.stored_at`,
};

/** Rows not stored again for this long are dropped, every PRUNE_EVERY stores of a process. */
const KEEP_MS = 60 * 60_000;
const PRUNE_EVERY = 1_000;
let stores = 0;

/** How many reads found a total, and how many totals were stored (tests read them). */
export const sharedTotalStats = { hits: 0, stored: 0 };

/** The row's key (fixed width): the tables the total follows and the caller's key (filters, scope, cap). */
export const sharedRowKey = (tables: readonly Table[], key: string) =>
  createHash('sha1')
    .update(`${tables.join(',')}|${key}`)
    .digest('base64url');

/**
 * A stored row as the total it holds. The caller reads it in its count's statement (users/list.ts:
 * `WHERE key = sharedRowKey(…) AND stamp = <its current stamp>`), so a row costs no statement of its own.
 */
export function sharedFrom(total: number, page: string | null): SharedTotal {
  sharedTotalStats.hits++;
  return { total, page: page === null ? null : (JSON.parse(page) as SharedPage) };
}

/** Stores a total counted after `stamp` was read, if its tables are still at that stamp in this process. */
export async function shareTotal(db: Db, tables: readonly Table[], key: string, stamp: string, value: SharedTotal): Promise<void> {
  const pool = pgPoolOf(db);
  if (!pool || currentTransaction() !== undefined) return;
  if ((await currentStamp(db, tables)) !== stamp) return;
  const page = value.page === null ? null : JSON.stringify(value.page);
  await pool.query({ ...STORE, values: [sharedRowKey(tables, key), stamp, value.total, page, Date.now()] });
  sharedTotalStats.stored++;
  if (++stores % PRUNE_EVERY === 0) await pool.query('DELETE FROM shared_totals WHERE stored_at < $1', [Date.now() - KEEP_MS]);
}
