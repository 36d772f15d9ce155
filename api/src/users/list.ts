import { normalizeText } from '@doanhoi/shared';
import { and, count, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { currentStamp, freshCachesByTables, type Table } from '../lib/freshness';
import { scopeVersion } from './scope-version';
import { cachedTotal } from '../lib/totals';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { pageRowsByIds, type PageRow } from './rows';
import { subtreeRange } from '../access/scope';
import { expandPrefixes, indexParams, matchesSearch, searchQuery, searchVersion, syncUsersIndex } from './search';
import {
  columnConds,
  countedMatches,
  indexStatements,
  nothing,
  sortedPages,
  pagedStatements,
  type CountedPage,
  type PagedStatements,
  type PageIds,
  type Total,
} from './index-statements';
import { users } from '../db/tables/users';
import { facetTotal, rootIds } from './facet-total';
import { scopeStatements } from './scope-statements';
import { provenCapped, rememberCapped } from './capped-searches';
import { sharedFrom, sharedRowKey, shareTotal, type SharedTotal } from '../lib/shared-totals';
import { allRows, currentTransaction, firstRow } from '../db/engine';
import { onPg } from '../db/dialect';

/**
 * What a filter's count (and its page checkpoints) can change with: which users exist and their
 * filtered columns ('users:counted', migration 0045); their search words only when it has words
 * ('users:words' when no piece begins with a digit, so a phone change keeps it: search.ts
 * searchVersion); and when it is scoped, the units' paths and who is in each subtree, by the
 * versions of the subtrees under one second-level unit, or of the top-level units (drizzle-pg 0036's
 * member_scopes rows; SQLite 0052's membership triggers). A phone change, a membership elsewhere, or one that
 * leaves the subtree's members as they were (a second chi đoàn) keeps the count in every process.
 */
function countedTables(f: ListFilter): readonly Table[] {
  const tables: Table[] = ['users:counted'];
  if (f.words.length > 0) tables.push(searchVersion(f.words));
  if (f.paths) tables.push(...new Set(f.paths.map(scopeVersion)), 'organizations');
  // One array per list of tables: the checkpoint caches are found by it.
  const key = tables.join(',');
  let kept = countedLists.get(key);
  if (!kept) countedLists.set(key, (kept = tables));
  return kept;
}
const countedLists = new Map<string, readonly Table[]>();

/** The search words, accent-stripped and lower-cased ("Nguyễn  Văn" → ["nguyen", "van"]); at most 8. */
export function searchWords(term: string | undefined): string[] {
  const n = normalizeText(term);
  return n ? [...new Set(n.split(' '))].slice(0, 8) : [];
}

export interface ListFilter {
  words: string[];
  userType?: string;
  membershipStatus?: string;
  isActive?: boolean;
  /** Users must be active members of one of these subtrees (materialised paths); null: no restriction. */
  paths: string[] | null;
}

/**
 * How search words and membership of the subtrees are matched. 'index' walks the users index
 * (search.ts: SQLite's FTS5 table, PostgreSQL's users_index), whose rows carry both the words and
 * the organizations a user belongs to (directly or beneath): counts and pages are index walks.
 * 'in' collects the subtrees' members first; 'exists' walks users newest first and probes each
 * one's memberships. The last two are the plain-SQL reference the tests compare the index with.
 */
export type Membership = 'index' | 'in' | 'exists';

/** A filter shape's WHERE, with placeholders; `below` bounds the members too (PostgreSQL walked them all from the newest down, docs/benchmark.md). */
function whereFor(f: ListFilter, membership: Membership, below = false): SQL | undefined {
  const conds: SQL[] = [];
  if (f.words.length) conds.push(searchQuery(f.words) === null ? nothing : matchesSearch('match'));
  conds.push(...columnConds(f));
  if (f.paths) {
    if (f.paths.length === 0) conds.push(nothing);
    else {
      const inSubtrees = sql.join(
        f.paths.map(
          (_, i) => sql`(${organizations.path} >= ${sql.placeholder(`p${i}`)} AND ${organizations.path} < ${sql.placeholder(`q${i}`)})`,
        ),
        sql` OR `,
      );
      conds.push(
        membership === 'in' && onPg()
          ? sql`${users.id} IN (SELECT user_id FROM member_scopes WHERE ${scopeRoots(f.paths.length)}${below ? sql` AND user_id <= ${sql.placeholder('from')}` : sql``})`
          : membership === 'in'
            ? sql`${users.id} IN (SELECT ${organizationMembers.userId} FROM ${organizationMembers} WHERE ${organizationMembers.isActive} = true${below ? sql` AND ${organizationMembers.userId} <= ${sql.placeholder('from')}` : sql``} AND ${organizationMembers.organizationId} IN (SELECT ${organizations.id} FROM ${organizations} WHERE ${inSubtrees}))`
            : sql`EXISTS (SELECT 1 FROM ${organizationMembers} JOIN ${organizations} ON ${organizations.id} = ${organizationMembers.organizationId} WHERE ${organizationMembers.userId} = ${users.id} AND ${organizationMembers.isActive} = true AND (${inSubtrees}))`,
      );
    }
  }
  return conds.length ? and(...conds) : undefined;
}

/**
 * PostgreSQL's scope for 'in': member_scopes (drizzle-pg 0008), a row per unit at or above each
 * active membership. One root is an equality, so its members come in user order and merge with
 * users walked by id; several are collected.
 */
const scopeRoots = (n: number) =>
  n === 1 ? sql`organization_id = ${sql.placeholder('root')}` : sql`organization_id = ANY (${sql.placeholder('roots')}::int[])`;

function paramsFor(f: ListFilter, membership: Membership): Record<string, unknown> {
  const p: Record<string, unknown> = {};
  if (f.userType !== undefined) p.userType = f.userType;
  if (f.membershipStatus !== undefined) p.membershipStatus = f.membershipStatus;
  if (f.isActive !== undefined) p.isActive = f.isActive ? 1 : 0;
  if (membership === 'index') return Object.assign(p, indexParams(f.words, f.paths && rootIds(f.paths)));
  const match = f.words.length ? searchQuery(f.words) : null;
  if (match !== null) p.match = match;
  f.paths?.forEach((path, i) => {
    const [from, to] = subtreeRange(path);
    p[`p${i}`] = from;
    p[`q${i}`] = to;
  });
  if (f.paths && onPg()) {
    p.roots = rootIds(f.paths);
    p.root = rootIds(f.paths)[0];
  }
  return p;
}

/** pageFrom: the same ids as pageIds, from the id `from` down (a checkpoint: see pageIdsAt). */
function buildStatements(
  db: Db,
  f: ListFilter,
  membership: Membership,
): PagedStatements & { pageSorted?: PageIds; total: Total; countedPage?: CountedPage; sharedCountedPage?: CountedPage } {
  if (membership === 'index') return indexStatements(db, f);
  const where = whereFor(f, membership);
  const total = db.select({ n: count() }).from(users).where(where).prepare();
  if (membership === 'in' && onPg() && f.paths?.length === 1 && f.words.length === 0 && columnConds(f).length === 0)
    return { ...scopeStatements(db), total };
  // Only the page's ids come from the filtered query (rowid order, or a (filter, id) index);
  // pageRowsByIds then joins just those rows. Two steps measure faster than one nested query.
  const matching = (cond: SQL | undefined) => db.select({ id: users.id }).from(users).where(cond);
  return { ...pagedStatements(db, matching, users.id, where, whereFor(f, membership, true)), total };
}

type Statements = ReturnType<typeof buildStatements>;
// Building and preparing SQL costs more than running these queries: keep one statement pair per
// filter shape (which filters are present, how many words and subtrees), per database.
const statementCache = new WeakMap<Db, Map<string, Statements>>();
const MAX_SHAPES = 200;

function statements(db: Db, f: ListFilter, membership: Membership): Statements {
  const matchable =
    membership === 'index'
      ? indexParams(f.words, f.paths && rootIds(f.paths)) !== null
      : f.words.length === 0 || searchQuery(f.words) !== null;
  const shape = [
    f.words.length > 0,
    matchable,
    f.userType !== undefined,
    f.membershipStatus !== undefined,
    f.isActive !== undefined,
    f.paths?.length ?? -1,
    membership,
  ].join(':');
  let byShape = statementCache.get(db);
  if (!byShape) statementCache.set(db, (byShape = new Map()));
  let s = byShape.get(shape);
  if (!s) {
    if (byShape.size >= MAX_SHAPES) byShape.clear();
    s = buildStatements(db, f, membership);
    byShape.set(shape, s);
  }
  return s;
}

/**
 * A page of users matching the filter, newest first, and the filter's (cached) total. Words or a
 * scope go through the index; `membership` forces a strategy (tests check all give the same answer).
 * A search's total stops at countedMatches.max (`capped`: more match) unless `exact`.
 */
export async function listPage(
  db: Db,
  f: ListFilter,
  totalKey: string,
  limit: number,
  offset: number,
  membership?: Membership,
  exact = false,
): Promise<{ rows: PageRow[]; total: number; capped: boolean }> {
  const strategy = strategyFor(f, membership);
  // The index answers words (every strategy) and subtrees ('index').
  if (f.words.length > 0 || strategy === 'index') syncUsersIndex(db);
  const s = statements(db, f, strategy);
  const params = paramsFor(f, strategy);
  await expandPrefixes(db, f.words, params);
  // A search counts one match past countedMatches.max: enough to say there are more.
  const cap = f.words.length > 0 && !exact ? countedMatches.max + 1 : 2 ** 31 - 1;
  params.cap = cap;
  // The page's ids when the count brought them (PostgreSQL's search, users/index-statements.ts countedPage).
  let counted: number[] | null = null;
  // A forced strategy (the tests comparing them) always counts in SQL.
  const tables = countedTables(f);
  const capping = f.words.length > 0 && !exact && membership === undefined;
  const total =
    (membership === undefined ? await facetTotal(db, f) : null) ??
    (await cachedTotal(db, tables, exact ? `${totalKey}|exact` : totalKey, async () => {
      // A narrower search past the cap puts this one past it (capped-searches.ts): no count.
      if (capping && (await provenCapped(db, f))) return cap;
      // Counted once for every process (lib/shared-totals.ts) where counting costs more than a row's read.
      const shared = membership === undefined && (await costlyCount(db, f));
      const stamp = capping || shared ? await currentStamp(db, tables) : '';
      const sharedKey = `${cap}|${totalKey}`;
      let known: SharedTotal | null = null;
      let n: number;
      if (!s.countedPage) n = (await firstRow(s.total, params))!.n;
      else {
        // A shared count is read in the count's own statement, which matches nothing when it is there: no statement of its own.
        const r = (await firstRow(shared ? s.sharedCountedPage! : s.countedPage, {
          ...params,
          limit,
          offset,
          max: Math.min(sortedPages.max, 2 ** 31 - 1),
          walk: offset < STRIDE,
          ...(shared ? { sharedKey: sharedRowKey(tables, sharedKey), sharedStamp: stamp } : {}),
        }))!;
        known = r.knownTotal == null ? null : sharedFrom(r.knownTotal, r.knownPage ?? null);
        counted = known ? (known.page?.limit === limit && known.page.offset === offset ? known.page.ids : null) : r.ids;
        n = known ? known.total : r.n;
      }
      if (capping && n >= cap) await rememberCapped(db, f, tables, stamp);
      if (shared && !known) await shareTotal(db, tables, sharedKey, stamp, { total: n, page: counted && { limit, offset, ids: counted } });
      return n;
    }));
  // The page's rows when the statement that found its ids brought them (PostgreSQL: PageIds.rows).
  const got: Got = {};
  const idsNow = async () =>
    counted ??
    (strategy === 'index' && !onPg()
      ? await allRows(s.pageIds, { ...params, limit, offset })
      : s.pageSorted && total <= sortedPages.max
        ? await pageOf(s.pageSorted, { ...params, limit, offset }, got)
        : await pageIdsAt(db, s, params, tables, totalKey, limit, offset, got)
    ).map((r) => r.id);
  // A forced strategy (the tests comparing them) always reads its own page.
  const ids = () => (membership === undefined ? pageIdsOf(tables).get(db, `${totalKey}|${exact}|${limit}|${offset}`, idsNow) : idsNow());
  const capped = total >= cap;
  const rows = async () => {
    const page = await ids();
    return got.rows ?? (await pageRowsByIds(db, page));
  };
  return {
    rows: capped || offset < total ? await rows() : [],
    total: capped ? countedMatches.max : total,
    capped,
  };
}

interface Got {
  rows?: PageRow[];
}

/** A page's ids from `q`, with its rows into `got` when `q` brings them in the same statement. */
async function pageOf(q: PageIds, params: Record<string, unknown>, got: Got): Promise<{ id: number }[]> {
  if (!q.rows) return await allRows(q, params);
  return (got.rows = await q.rows(params));
}

/**
 * A page's ids, kept per filter and page while the tables its count reads are unchanged (the same
 * tables decide which users match and their order). On PostgreSQL a search whose count is kept came
 * back for its page to a statement that collects and sorts every match (pageSorted, 1.2 ms a call:
 * a seventh of PostgreSQL's statement time under the 100k read mix); the ids a count brought
 * (countedPage) are kept too. On SQLite a scoped search's page is an FTS5 query of two terms or
 * more: 30–240 µs (users/index-merge.ts), searches of the mix 15 % cheaper with their ids kept.
 */
const pageIdsOf = freshCachesByTables<number[]>(5_000);

/**
 * A search's count is shared by the processes (lib/shared-totals.ts) when it runs over everyone or
 * over subtrees of at least this many members: a university's search at 1M users (499,193 members)
 * cost PostgreSQL about 25 ms a count, a 100k university's (49,436) 5–9 ms and a 1M faculty's
 * (13,000) about 2 ms, where storing the row costs about 0.3 ms and reading it nothing (the count's own
 * statement); a class's count costs less than that. Each process counted them again: under the 100k
 * mix searches' counts were a third of PostgreSQL's statement time, a university's the costliest
 * (docs/benchmark.md, session 29). An object so that tests can lower it.
 */
export const sharedCounts = { from: 10_000 };

/** Whether a search's count is worth sharing: PostgreSQL, words, and a scope of at least sharedCounts.from users (facet counts, cached). */
async function costlyCount(db: Db, f: ListFilter): Promise<boolean> {
  // Inside a transaction the stamp would not show its own writes (lib/shared-totals.ts).
  if (!onPg() || f.words.length === 0 || currentTransaction() !== undefined) return false;
  let n = 0;
  for (const paths of f.paths === null ? [null] : f.paths.map((p) => [p])) {
    n += (await facetTotal(db, { words: [], paths })) ?? 0;
    if (n >= sharedCounts.from) return true;
  }
  return false;
}

/** Every STRIDE-th id of a filter's list (newest first), for as far as pages were asked. */
const STRIDE = 200;
const checkpointsOf = freshCachesByTables<number[]>(500);

/**
 * A page's ids without walking a deep OFFSET each time: the ids at positions STRIDE, 2·STRIDE…
 * are remembered per filter while its tables are unchanged (lib/freshness.ts), and a page starts
 * from the checkpoint before it (`id <= checkpoint`, a b-tree or FTS5 rowid seek) with an OFFSET
 * under STRIDE. Ids are unique and strictly ordered, so the page is the one OFFSET would give.
 * Not for the FTS5 index: it reads `rowid <= ?` newest first by scanning down to it, which costs
 * more than the OFFSET (0.5 ms at offset 10,000 of a 50k-member subtree on the bench database).
 */
async function pageIdsAt(
  db: Db,
  s: Statements,
  params: Record<string, unknown>,
  tables: readonly Table[],
  key: string,
  limit: number,
  offset: number,
  got: Got,
) {
  if (offset < STRIDE) return await pageOf(s.pageIds, { ...params, limit, offset }, got);
  const k = Math.floor(offset / STRIDE);
  // marks[i] is the id at position (i + 1)·STRIDE; filled in place, as deep as pages are asked.
  const marks = await checkpointsOf(tables).get(db, key, async () => []);
  if (marks.length < k && s.walkTop) return await walkTo(s, params, marks, limit, offset);
  while (marks.length < k) {
    const known = marks.length;
    const last = marks.at(-1);
    const next =
      last === undefined
        ? await allRows(s.pageIds, { ...params, limit: 1, offset: STRIDE })
        : await allRows(s.pageFrom, { ...params, from: last, limit: 1, offset: STRIDE });
    if (next.length === 0) return [];
    // Another request for the same list may have added this checkpoint while the statement ran.
    if (marks.length === known) marks.push(next[0]!.id);
  }
  return await pageOf(s.pageFrom, { ...params, from: marks[k - 1]!, limit, offset: offset - k * STRIDE }, got);
}

/**
 * PostgreSQL: a deep page and the checkpoints missing before it from one walk (index-statements.ts
 * walkStatement), from the last checkpoint known or from the top: the walk's rank r is the list's
 * position known·STRIDE + r. Its checkpoints are added only if no other request added some meanwhile.
 */
async function walkTo(s: Statements, params: Record<string, unknown>, marks: number[], limit: number, offset: number) {
  const known = marks.length;
  const last = marks.at(-1);
  const start = offset - known * STRIDE;
  const walk = { ...params, upto: start + limit, stride: STRIDE, start };
  const ranked = await allRows(last === undefined ? s.walkTop! : s.walkFrom!, last === undefined ? walk : { ...walk, from: last });
  ranked.sort((a, b) => a.r - b.r);
  if (marks.length === known) for (const x of ranked) if (x.r > 0 && x.r % STRIDE === 0) marks.push(x.id);
  return ranked.filter((x) => x.r >= start);
}

/**
 * The ids matching the filter, newest first, at most `limit`: what a bulk change over "all that
 * match" touches (bulk-update.ts), through the same statements as the list's pages.
 */
export async function matchingIds(db: Db, f: ListFilter, limit: number): Promise<number[]> {
  const strategy = strategyFor(f);
  if (f.words.length > 0 || strategy === 'index') syncUsersIndex(db);
  const params = paramsFor(f, strategy);
  await expandPrefixes(db, f.words, params);
  return (await allRows(statements(db, f, strategy).pageIds, { ...params, limit, offset: 0 })).map((r) => r.id);
}

/**
 * The strategy asked for, else the index for words or a scope. PostgreSQL reads a scope without
 * words from member_scopes ('in'): its pages merge the scope's members by id, where the index's
 * `orgs &&` filter walked every user down to a checkpoint (22 ms a page at 100k, bench).
 */
function strategyFor(f: ListFilter, membership?: Membership): Membership {
  if (membership) return membership;
  if (onPg()) return f.words.length > 0 ? 'index' : 'in';
  return f.words.length > 0 || f.paths ? 'index' : 'in';
}
