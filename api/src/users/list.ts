import { normalizeText } from '@doanhoi/shared';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { classes } from '../classes/schema';
import type { Db } from '../db/client';
import { departments } from '../departments/schema';
import { cachedTotal } from '../lib/totals';
import { organizationMembers, organizations } from '../organizations/schema';
import type { UserListRow } from './mapper';
import { subtreeRange } from './scope';
import { users } from './schema';
import { inJsonIds } from '../db/sqlite';

const managementDepartment = alias(departments, 'management_department');
const trainingDepartment = alias(departments, 'training_department');

/** The user columns any screen or export may read: never the hash or the search column. */
export const publicUserColumns = {
  id: users.id,
  code: users.code,
  familyName: users.familyName,
  givenName: users.givenName,
  email: users.email,
  phone: users.phone,
  userType: users.userType,
  membershipStatus: users.membershipStatus,
  isActive: users.isActive,
  mustChangePassword: users.mustChangePassword,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  classId: users.classId,
  managementDepartmentId: users.managementDepartmentId,
  trainingDepartmentId: users.trainingDepartmentId,
};

/** A users-screen row: the public columns with the class and department names. */
const rowColumns = {
  ...publicUserColumns,
  className: classes.name,
  managementDepartmentName: managementDepartment.name,
  trainingDepartmentName: trainingDepartment.name,
};

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
 * How membership of the subtrees is matched. 'in' collects the subtrees' members first (cheap
 * when they are few); 'exists' walks users newest first and probes each one's memberships
 * (cheap when they are many, since a page fills after a few rows).
 */
export type Membership = 'in' | 'exists';

const likePattern = (word: string) => `%${word.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/** The WHERE clause of a filter shape, with placeholders for its values. */
function whereFor(f: ListFilter, membership: Membership): SQL | undefined {
  const conds: SQL[] = f.words.map((_, i) => sql`${users.searchText} LIKE ${sql.placeholder(`w${i}`)} ESCAPE '\\'`);
  if (f.userType !== undefined) conds.push(eq(users.userType, sql.placeholder('userType')));
  if (f.membershipStatus !== undefined) conds.push(eq(users.membershipStatus, sql.placeholder('membershipStatus')));
  if (f.isActive !== undefined) conds.push(sql`${users.isActive} = ${sql.placeholder('isActive')}`);
  if (f.paths) {
    if (f.paths.length === 0) conds.push(sql`0`);
    else {
      const inSubtrees = sql.join(
        f.paths.map((_, i) => sql`(${organizations.path} >= ${sql.placeholder(`p${i}`)} AND ${organizations.path} < ${sql.placeholder(`q${i}`)})`),
        sql` OR `,
      );
      conds.push(
        membership === 'in'
          ? sql`${users.id} IN (SELECT ${organizationMembers.userId} FROM ${organizationMembers} WHERE ${organizationMembers.isActive} = 1 AND ${organizationMembers.organizationId} IN (SELECT ${organizations.id} FROM ${organizations} WHERE ${inSubtrees}))`
          : sql`EXISTS (SELECT 1 FROM ${organizationMembers} JOIN ${organizations} ON ${organizations.id} = ${organizationMembers.organizationId} WHERE ${organizationMembers.userId} = ${users.id} AND ${organizationMembers.isActive} = 1 AND (${inSubtrees}))`,
      );
    }
  }
  return conds.length ? and(...conds) : undefined;
}

function paramsFor(f: ListFilter): Record<string, unknown> {
  const p: Record<string, unknown> = {};
  f.words.forEach((w, i) => (p[`w${i}`] = likePattern(w)));
  if (f.userType !== undefined) p.userType = f.userType;
  if (f.membershipStatus !== undefined) p.membershipStatus = f.membershipStatus;
  if (f.isActive !== undefined) p.isActive = f.isActive ? 1 : 0;
  f.paths?.forEach((path, i) => {
    const [from, to] = subtreeRange(path);
    p[`p${i}`] = from;
    p[`q${i}`] = to;
  });
  return p;
}

function buildStatements(db: Db, f: ListFilter, membership: Membership) {
  const where = whereFor(f, membership);
  // Only the page's ids come from the filtered query (rowid order, or a (filter, id) index);
  // rowsByIds then joins just those rows. Two steps measure faster than one nested query.
  const pageIds = db
    .select({ id: users.id })
    .from(users)
    .where(where)
    .orderBy(desc(users.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare();
  const total = db.select({ n: count() }).from(users).where(where).prepare();
  return { pageIds, total };
}

type Statements = ReturnType<typeof buildStatements>;
// Building and preparing SQL costs more than running these queries: keep one statement pair per
// filter shape (which filters are present, how many words and subtrees), per database.
const statementCache = new WeakMap<Db, Map<string, Statements>>();
const MAX_SHAPES = 200;

function statements(db: Db, f: ListFilter, membership: Membership): Statements {
  const shape = [f.words.length, f.userType !== undefined, f.membershipStatus !== undefined, f.isActive !== undefined, f.paths?.length ?? -1, membership].join(':');
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
 * Members of the subtrees (cached like a total), and the strategy that suits their share of all
 * users: below 1 in 20 their list is small enough to collect first.
 */
function membershipFor(db: Db, paths: string[]): { membership: Membership; members: number } {
  if (paths.length === 0) return { membership: 'in', members: 0 };
  const only = { words: [], paths };
  const all = cachedTotal('users', 'size:all', () => db.select({ n: count() }).from(users).get()!.n);
  const members = cachedTotal('users', `size:${paths.join(',')}`, () => statements(db, only, 'in').total.get(paramsFor(only))!.n);
  return { membership: members * 20 < all ? 'in' : 'exists', members };
}

/**
 * A page of users matching the filter, newest first, and the filter's (cached) total. `membership`
 * forces a strategy (tests check both give the same answer).
 */
export function listPage(
  db: Db,
  f: ListFilter,
  totalKey: string,
  limit: number,
  offset: number,
  membership?: Membership,
): { rows: UserListRow[]; total: number } {
  const sized = f.paths ? membershipFor(db, f.paths) : null;
  const s = statements(db, f, membership ?? sized?.membership ?? 'in');
  const params = paramsFor(f);
  const onlyPaths = sized && f.words.length === 0 && f.userType === undefined && f.membershipStatus === undefined && f.isActive === undefined;
  const total = cachedTotal('users', totalKey, () => (onlyPaths ? sized.members : s.total.get(params)!.n));
  const rows = offset < total ? rowsByIds(db, s.pageIds.all({ ...params, limit, offset }).map((r) => r.id)) : [];
  return { rows, total };
}

function buildRowsStatement(db: Db) {
  return db
    .select(rowColumns)
    .from(users)
    .leftJoin(classes, eq(classes.id, users.classId))
    .leftJoin(managementDepartment, eq(managementDepartment.id, users.managementDepartmentId))
    .leftJoin(trainingDepartment, eq(trainingDepartment.id, users.trainingDepartmentId))
    // One statement for any number of ids: they arrive as one JSON array.
    .where(inJsonIds(users.id, 'ids'))
    .prepare();
}
const rowsStatements = new WeakMap<Db, ReturnType<typeof buildRowsStatement>>();

/** Full rows for these ids, in the order given. */
export function rowsByIds(db: Db, ids: number[]): UserListRow[] {
  if (ids.length === 0) return [];
  let s = rowsStatements.get(db);
  if (!s) rowsStatements.set(db, (s = buildRowsStatement(db)));
  const rows = s.all({ ids: JSON.stringify(ids) });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is UserListRow => r !== undefined);
}
