import type { Db } from '../db/client';
import { freshCachesByTables, type Table } from './freshness';

/**
 * List totals are the expensive part of a paginated list (count(*) over 100k rows on every
 * request costs most of a list route's throughput). Each total is cached per database, per the
 * tables its count reads and per filter key, until one of those tables is written (lib/freshness.ts):
 * name every table the count query reads, joins included.
 */

// Searches and filters times scopes run to thousands of keys under the realistic mix (a number
// each, a few MB at most); 500 kept too few, so every random search recounted (issue 28 item 4).
const caches = freshCachesByTables<number>(5000);

export function cachedTotal(db: Db, tables: readonly Table[], filterKey: string, count: () => Promise<number>): Promise<number> {
  return caches(tables).get(db, filterKey, count);
}

export function totalPages(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}
