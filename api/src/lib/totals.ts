/**
 * List totals are the expensive part of a paginated list (count(*) over 100k rows on every
 * request costs most of a list route's throughput). Cache each total per table and filter key,
 * and drop a table's totals on any write to it (call invalidateTotals in the service after the write).
 */
const cache = new Map<string, Map<string, number>>();
const MAX_KEYS_PER_TABLE = 500;

export function cachedTotal(table: string, filterKey: string, count: () => number): number {
  let t = cache.get(table);
  if (!t) {
    t = new Map();
    cache.set(table, t);
  }
  const hit = t.get(filterKey);
  if (hit !== undefined) return hit;
  const n = count();
  if (t.size >= MAX_KEYS_PER_TABLE) t.clear();
  t.set(filterKey, n);
  return n;
}

/** Drop cached totals of these tables (lists that join several tables pass each name they read). */
export function invalidateTotals(...tables: string[]): void {
  if (tables.length === 0) cache.clear();
  for (const t of tables) cache.delete(t);
}

export function totalPages(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}
