/**
 * The users list's statements for the 'index' strategy (users/list.ts): ids newest first and the
 * count, driven by SQLite's FTS5 table or PostgreSQL's users_index (users/search.ts).
 */
import { and, count, desc, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '../db/client';
import { users } from '../db/tables/users';
import { onPg } from '../db/dialect';
import { plannedPerCall } from '../db/postgres';
import { pageRowsOf, type PageRowsOf } from './rows';
import { indexCondition, indexParams, pgUsersIndex, usersIndex } from './search';
import { rootIds } from './facet-total';
import type { ListFilter } from './list';

/** A page's ids; on PostgreSQL, when it keeps a plan, `rows` answers the page's rows in the same statement (users/rows.ts pageRowsOf). */
export type PageIds = { all(params?: Record<string, unknown>): { id: number }[]; rows?: PageRowsOf };
export type Total<T = { n: number }> = { get(params?: Record<string, unknown>): T | undefined };
export type CountedPage = Total<{ n: number; ids: number[] | null; knownTotal?: number | null; knownPage?: string | null }>;
/** A walk's ids with their 0-based rank (walkStatement). */
export type Walk = { all(params?: Record<string, unknown>): { id: number; r: number }[] };

/** A condition no row meets, in a form both engines read as boolean. */
export const nothing = sql`1 = 0`;

/** Filters on users' own columns. */
export function columnConds(f: ListFilter): SQL[] {
  const conds: SQL[] = [];
  if (f.userType !== undefined) conds.push(eq(users.userType, sql.placeholder('userType')));
  if (f.membershipStatus !== undefined) conds.push(eq(users.membershipStatus, sql.placeholder('membershipStatus')));
  if (f.isActive !== undefined) conds.push(sql`${users.isActive} = ${sql.placeholder('isActive')}`);
  return conds;
}

/**
 * Up to this many matches, PostgreSQL's page of a search is taken from all of them, sorted
 * (pageSorted): a bitmap of the GIN index, whose cost grows with the matches only. Above it the
 * planner may walk users_index newest first and stop at the page, which pays only when matches
 * are dense. It misjudges small scopes (`orgs && '{unit}'` estimated at hundreds of rows when a
 * class has three matches) and walked all 1,000,000 rows for them: 0.45–1.0 s, where sorting the
 * few matches takes a millisecond (docs/benchmark.md, 2026-11-28). An object so that the tests
 * can compare both ways on a small database.
 */
export const sortedPages = { max: 5_000 };

/**
 * A search's matches are counted up to this many; beyond it the list says "more than" this many
 * (users/list.ts). PostgreSQL 15 visits the heap page of every match it counts (no index-only
 * bitmap count): an unscoped 'nguyen' at 1M users is 83,725 matches on 22,374 pages, 65–107 ms a
 * count, and counts of searches were 58 % of the database's time under the 1M read mix, against
 * 10–15 ms when counting stops at 10,001 (docs/benchmark.md, 2026-11-28). Nobody pages through
 * 1,000 pages of a search: past them the admin narrows it. An object so that tests can lower it.
 */
export const countedMatches = { max: 10_000 };

/** Ids newest first and the count, driven by the index; users joined only for column filters. */
export function indexStatements(db: Db, f: ListFilter) {
  const index = onPg() ? { table: pgUsersIndex, id: pgUsersIndex.id } : { table: usersIndex, id: usersIndex.rowid };
  const matchable = indexParams(f.words, f.paths && rootIds(f.paths)) !== null;
  const where = matchable ? and(indexCondition(f.words.length > 0, f.paths !== null), ...columnConds(f)) : nothing;
  const joined = columnConds(f).length > 0;
  // A fresh builder each time: drizzle's builders are changed in place by a join.
  const matching = (cond: SQL | undefined) => {
    const ids = db.select({ id: index.id }).from(index.table);
    return (joined ? ids.innerJoin(users, eq(users.id, index.id)) : ids).where(cond);
  };
  // At most `cap` matches are counted (countedMatches; a scope without words passes no limit).
  const one = db.select({ one: sql`1` }).from(index.table);
  const capped = (joined ? one.innerJoin(users, eq(users.id, index.id)) : one).where(where).limit(sql.placeholder('cap')).as('capped');
  const total = db.select({ n: count() }).from(capped).prepare();
  return {
    // SQLite's index pages walk their OFFSET (users/list.ts): its walks are never used.
    ...pagedStatements(db, matching, index.id, where, where),
    // `id + 0` is the same order, which no index yields: PostgreSQL collects the matches and sorts them.
    pageSorted: onPg() ? pageStatement(db, matching(where), sql`${index.id} + 0 DESC`) : undefined,
    total: total as unknown as Total,
    countedPage: onPg() ? countedPage(db, joined, where) : undefined,
    sharedCountedPage: onPg() ? countedPage(db, joined, where, true) : undefined,
  };
}

/**
 * PostgreSQL's count with a page of ids, for a search whose total is not kept yet: one statement
 * where the count and the page took two (each costs the API about 50 µs of node-postgres, and the
 * server collected the matches twice). The matches are collected once (a CTE read twice is
 * materialised); the page comes as pageSorted gives it when there are at most `max`, else as pageIds
 * walks users_index when `walk` (a page near the start), else not at all (null: list.ts's checkpoints).
 * A subquery in a CASE branch not taken is never run.
 */
function countedPage(db: Db, joined: boolean, filter: SQL | undefined, shared = false): CountedPage {
  const index = { table: pgUsersIndex, id: pgUsersIndex.id };
  // `shared`: the row another process stored for this count under the current stamp (lib/shared-totals.ts),
  // read in this statement; when there is one, nothing is matched (a one-time filter) and it is the answer.
  const stored = (column: 'total' | 'page') =>
    sql`(SELECT ${sql.raw(column)} FROM shared_totals WHERE key = ${sql.placeholder('sharedKey')} AND stamp = ${sql.placeholder('sharedStamp')})`;
  const where = shared ? and(filter, sql`NOT EXISTS ${stored('total')}`) : filter;
  const ids = db.select({ id: index.id }).from(index.table);
  const matches = db
    .$with('matches')
    .as((joined ? ids.innerJoin(users, eq(users.id, index.id)) : ids).where(where).limit(sql.placeholder('cap')));
  const walked = db.select({ id: index.id }).from(index.table);
  const walk = (joined ? walked.innerJoin(users, eq(users.id, index.id)) : walked)
    .where(where)
    .orderBy(desc(index.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'));
  return db
    .with(matches)
    .select({
      n: sql<number>`count(*)`.mapWith(Number),
      ids: sql<number[] | null>`CASE WHEN count(*) <= ${sql.placeholder('max')}
        THEN ARRAY(SELECT "id" FROM "matches" ORDER BY "id" DESC LIMIT ${sql.placeholder('limit')} OFFSET ${sql.placeholder('offset')})
        WHEN ${sql.placeholder('walk')}::boolean THEN ARRAY(${walk}) END`,
      ...(shared ? { knownTotal: sql<number | null>`${stored('total')}`, knownPage: sql<string | null>`${stored('page')}` } : {}),
    })
    .from(matches)
    .prepare() as unknown as CountedPage;
}

/** How list.ts pages a list: a page, a page from a checkpoint down, and the walks that build checkpoints. */
export type PagedStatements = { pageIds: PageIds; pageFrom: PageIds; walkTop?: Walk; walkFrom?: Walk };

/**
 * A page of `ids` in `order` (newest first): `limit` rows from `offset`. With `withRows`, on PostgreSQL,
 * the page's rows come in the same statement (pageRowsOf) — only for ids PostgreSQL keeps a generic plan
 * of joined to the rows: one unit's member_scopes range. A page of users filtered by their columns, joined
 * to the rows, was planned at every call all the same (its LIMIT a parameter, the generic plan is
 * estimated for a tenth of the table): 0.8–1.2 ms of planning where its ids alone plan in 0.08 ms and
 * the rows by ids keep their plan (pg_stat_statements, docs/benchmark.md "Session 32").
 */
function pageStatement(db: Db, ids: { orderBy(o: SQL): unknown }, order: SQL, withRows = false): PageIds {
  type Paged = SQLWrapper & { prepare(): unknown; toSQL(): { sql: string } };
  const ordered = ids.orderBy(order) as { limit(n: unknown): { offset(n: unknown): Paged } };
  const paged = ordered.limit(sql.placeholder('limit')).offset(sql.placeholder('offset'));
  const statement = paged.prepare() as PageIds;
  if (withRows && onPg() && !plannedPerCall(paged.toSQL().sql)) statement.rows = pageRowsOf(db, paged);
  return statement;
}

/**
 * The paging statements over the ids `matching` selects, newest first by `id`: the list is `where`;
 * a page after a checkpoint is `whereBelow` (the same rows, or a form that reads them from a
 * checkpoint down better) at or below the placeholder `from`. Walks on PostgreSQL only: SQLite's
 * in-process statements cost less one by one.
 */
export function pagedStatements(
  db: Db,
  matching: (cond: SQL | undefined) => { orderBy(o: SQL): unknown },
  id: AnySQLiteColumn,
  where: SQL | undefined,
  whereBelow: SQL | undefined,
  withRows = false,
): PagedStatements {
  const below = and(whereBelow, sql`${id} <= ${sql.placeholder('from')}`);
  return {
    pageIds: pageStatement(db, matching(where), desc(id), withRows),
    pageFrom: pageStatement(db, matching(below), desc(id), withRows),
    walkTop: onPg() ? walkStatement(db, matching(where), id) : undefined,
    walkFrom: onPg() ? walkStatement(db, matching(below), id) : undefined,
  };
}

/**
 * The missing checkpoints of a deep page and the page itself in one statement (users/list.ts
 * pageIdsAt): the first `upto` ids of `ids` newest first, each with its 0-based rank, keeping every
 * `stride`-th and those from rank `start` on. Building the checkpoints one statement each cost
 * PostgreSQL a round trip and a plan per 200 rows, up to 50 in a row for page 1,000 each time a
 * membership write had made them stale (the users page's p99 of 263 ms under the +10 % writes mix).
 */
function walkStatement(db: Db, ids: { orderBy(o: SQL): unknown }, id: AnySQLiteColumn): Walk {
  const ordered = ids.orderBy(desc(id)) as unknown as { limit(n: unknown): { as(alias: string): { id: AnySQLiteColumn } } };
  const walked = ordered.limit(sql.placeholder('upto')).as('walked');
  const ranked = db
    .select({ id: walked.id, r: sql<number>`row_number() OVER (ORDER BY ${walked.id} DESC) - 1`.mapWith(Number).as('r') })
    .from(walked as never)
    .as('ranked');
  return db
    .select({ id: ranked.id, r: ranked.r })
    .from(ranked)
    .where(sql`(${ranked.r} > 0 AND ${ranked.r} % ${sql.placeholder('stride')} = 0) OR ${ranked.r} >= ${sql.placeholder('start')}`)
    .prepare() as unknown as Walk;
}
