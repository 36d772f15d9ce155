/**
 * A users list's total from the trigger-kept facet counts (users/list.ts asks here first): no
 * count over the users themselves for a filter without search words.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { firstRow } from '../db/engine';
import { userFacetCounts } from '../db/tables/users';
import { freshCache, freshCachesByTables } from '../lib/freshness';
import { scopeVersion } from './scope-version';
import { perDb } from '../lib/per-db';
import type { ListFilter } from './list';

/** The subtree roots' ids from their paths ("/1/5/" → 5). */
export const rootIds = (paths: string[]) => paths.map((p) => Number(p.split('/').at(-2)));

/**
 * What the facet counts change with: the counted columns of users, and for a subtree who is in it and
 * the tree (as list.ts's countedTables for the same filters). A subtree's counts are kept per user and
 * unit in it (the triggers add a user to a unit's counts when they enter its subtree), so a membership
 * that leaves its members as they were, or one under another second-level unit, keeps them.
 */
const whole = freshCache<number>(1_000, ['users:counted']);
const bySubtree = freshCachesByTables<number>(5_000);
const subtreeTotals = (path: string) => bySubtree(['users:counted', scopeVersion(path), 'organizations']);

/**
 * The total of a filter without search words over everything or one subtree, from the
 * trigger-kept user_facet_counts (migration 0023): a few rows, where counting the column filters
 * took 6–30 ms over 50k–100k users. Null for words or several subtrees (a user in two would count twice).
 * Kept until a table it follows is written: every users page that missed the page cache read it
 * again (on PostgreSQL a statement of its own, about 50 µs of the API's CPU besides the server's).
 */
export async function facetTotal(db: Db, f: ListFilter): Promise<number | null> {
  if (f.words.length > 0 || (f.paths !== null && f.paths.length !== 1)) return null;
  const shape = [f.userType !== undefined, f.membershipStatus !== undefined, f.isActive !== undefined].join(':');
  const params: Record<string, unknown> = { organizationId: f.paths ? rootIds(f.paths)[0]! : 0 };
  if (f.userType !== undefined) params.userType = f.userType;
  if (f.membershipStatus !== undefined) params.membershipStatus = f.membershipStatus;
  if (f.isActive !== undefined) params.isActive = f.isActive ? 1 : 0;
  const key = `${params.organizationId}|${f.userType ?? ''}|${f.membershipStatus ?? ''}|${params.isActive ?? ''}`;
  return await (f.paths ? subtreeTotals(f.paths[0]!) : whole).get(db, key, async () => {
    const byShape = facetStatements(db);
    let statement = byShape.get(shape);
    if (!statement) byShape.set(shape, (statement = facetStatement(db, f)));
    return (await firstRow(statement, params))!.n;
  });
}

function facetStatement(db: Db, f: ListFilter) {
  const t = userFacetCounts;
  const conds: SQL[] = [eq(t.organizationId, sql.placeholder('organizationId'))];
  if (f.userType !== undefined) conds.push(eq(t.userType, sql.placeholder('userType')));
  if (f.membershipStatus !== undefined) conds.push(eq(t.membershipStatus, sql.placeholder('membershipStatus')));
  if (f.isActive !== undefined) conds.push(eq(t.isActive, sql.placeholder('isActive')));
  return db
    .select({ n: sql<number>`coalesce(sum(${t.n}), 0)`.mapWith(Number) })
    .from(t)
    .where(and(...conds))
    .prepare();
}
// One statement per filter shape (which of the three filters are present), per database.
const facetStatements = perDb(() => new Map<string, ReturnType<typeof facetStatement>>());
