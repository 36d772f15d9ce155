/**
 * A users-screen row by id: the user's public columns with the class and department names
 * (users/list.ts pages, the detail, the profile). A page's rows also carry the active memberships
 * and the paid flag (pageRowsByIds): one statement, not three.
 */
import type { UserListItem } from '@doanhoi/shared';
import { eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../db/client';
import { onPg } from '../db/dialect';
import { allRows } from '../db/engine';
import { inJsonIds } from '../db/sqlite';
import { classes } from '../db/tables/classes';
import { departments } from '../db/tables/departments';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { paymentAssignments, paymentOrders } from '../db/tables/payments';
import { users } from '../db/tables/users';
import { sessionUserColumns, type UserListRow } from '../access/user-mapper';
import { pathIds } from '../access/organization-context';
import { perDb } from '../lib/per-db';

const managementDepartment = alias(departments, 'management_department');
const trainingDepartment = alias(departments, 'training_department');

/** The user columns any screen or export may read: never the hash or the search column. */
export const publicUserColumns = {
  ...sessionUserColumns,
  classId: users.classId,
  managementDepartmentId: users.managementDepartmentId,
  trainingDepartmentId: users.trainingDepartmentId,
  dateOfBirth: users.dateOfBirth,
  gender: users.gender,
  ethnicity: users.ethnicity,
  religion: users.religion,
  doanJoinedAt: users.doanJoinedAt,
  hoiJoinedAt: users.hoiJoinedAt,
  partyJoinedAt: users.partyJoinedAt,
  hometown: users.hometown,
};

/** A users-screen row: the public columns with the class and department names. */
const rowColumns = {
  ...publicUserColumns,
  className: classes.name,
  managementDepartmentName: managementDepartment.name,
  trainingDepartmentName: trainingDepartment.name,
};

/**
 * A page's extras, per row: the active memberships as [organization, path] pairs in membership
 * order (a JSON array: PostgreSQL's json_agg, parsed by the driver, null for none; SQLite's
 * json_group_array, text), and whether a fee or an order of the user is PAID (users/paid.ts's rule).
 */
const pageExtras = (pg: boolean) => {
  const pair = pg
    ? sql`json_agg(json_build_array(${organizationMembers.organizationId}, ${organizations.path}) ORDER BY ${organizationMembers.id})`
    : sql`json_group_array(json_array(${organizationMembers.organizationId}, ${organizations.path}) ORDER BY ${organizationMembers.id})`;
  return {
    memberships: sql<[number, string][] | string | null>`(SELECT ${pair}
    FROM ${organizationMembers} JOIN ${organizations} ON ${organizations.id} = ${organizationMembers.organizationId}
    WHERE ${organizationMembers.userId} = ${users.id} AND ${organizationMembers.isActive} = true)`,
    // Scalar subqueries, not EXISTS: PostgreSQL may run an EXISTS as a hashed subplan, and did for
    // payment_orders on the bench (a sequential scan of its 20k PAID rows per page, 9 ms a statement);
    // a scalar subquery stays an index probe per row (0.3 ms the page). SQLite answers 1 or 0.
    paid: sql<
      boolean | number
    >`(coalesce((SELECT true FROM ${paymentAssignments} WHERE ${paymentAssignments.userId} = ${users.id} AND ${paymentAssignments.status} = 'PAID' LIMIT 1), false)
    OR coalesce((SELECT true FROM ${paymentOrders} WHERE ${paymentOrders.userId} = ${users.id} AND ${paymentOrders.status} = 'PAID' LIMIT 1), false))`,
  };
};

// One statement for any number of ids: they arrive as one JSON array (or, `which`, come from a subquery).
const rowsQuery = <T extends object>(db: Db, extra: T, which: SQL = inJsonIds(users.id, 'ids')) =>
  db
    .select({ ...rowColumns, ...extra })
    .from(users)
    .leftJoin(classes, eq(classes.id, users.classId))
    .leftJoin(managementDepartment, eq(managementDepartment.id, users.managementDepartmentId))
    .leftJoin(trainingDepartment, eq(trainingDepartment.id, users.trainingDepartmentId))
    .where(which)
    .prepare();
const rowsStatement = perDb((db) => rowsQuery(db, {}));

/** In the order of `ids`, leaving out ids without a row. */
function inOrder<T extends { id: number }>(ids: number[], rows: T[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is T => r !== undefined);
}

/** Full rows for these ids, in the order given. */
export async function rowsByIds(db: Db, ids: number[]): Promise<UserListRow[]> {
  if (ids.length === 0) return [];
  return inOrder(ids, await allRows(rowsStatement(db), { ids: JSON.stringify(ids) }));
}

/** A list page's row, with its active memberships and paid flag. */
export type PageRow = UserListRow & { memberOf: UserListItem['memberOf']; paid: boolean };

/** An active membership as the list answers it: the organization and its ancestors. */
export const memberOfEntry = (organizationId: number, path: string) => ({
  organizationId,
  ancestorIds: pathIds(path).filter((o) => o !== organizationId),
});

type Extras = Record<string, SQL<unknown>>;

/** A JSON array the database built: PostgreSQL's driver parses it (null for none), SQLite answers its text. */
export const jsonList = <T>(v: unknown): T[] => (typeof v === 'string' ? (JSON.parse(v) as T[]) : ((v as T[] | null) ?? []));

type RawPageRow<E> = UserListRow & { memberships: [number, string][] | string | null; paid: boolean | number } & {
  [K in keyof E]: unknown;
};

/** A page row as the statements answer it, with its memberships parsed and its paid flag a boolean. */
function toPageRow<E>({ memberships, paid, ...r }: RawPageRow<E>) {
  return {
    ...r,
    memberOf: jsonList<[number, string]>(memberships).map(([organizationId, path]) => memberOfEntry(organizationId, path)),
    paid: Boolean(paid),
  } as PageRow & { [K in keyof E]: unknown };
}

/**
 * Page rows by ids with `extra` columns read in the same statement (a user's detail: users/detail-row.ts),
 * prepared once: a function of the ids answering the rows in their order.
 */
export function pageRowsWith<E extends Extras>(db: Db, extra: E) {
  const statement = rowsQuery(db, { ...pageExtras(onPg()), ...extra });
  return async (ids: number[]): Promise<(PageRow & { [K in keyof E]: unknown })[]> => {
    if (ids.length === 0) return [];
    // drizzle's inferred row type does not survive the generic extras: the columns are rowColumns', the page's and E's.
    const rows = (await allRows(statement, { ids: JSON.stringify(ids) })) as unknown as RawPageRow<E>[];
    return inOrder(
      ids,
      rows.map((r) => toPageRow(r)),
    );
  };
}

/** A page's rows, newest first, straight from a statement of its ids (PageRowsOf). */
export type PageRowsOf = (params: Record<string, unknown>) => Promise<PageRow[]>;

/**
 * PostgreSQL: the rows of the page whose ids `ids` selects (a subquery with its own placeholders),
 * newest first, in one statement where the ids and their rows took two: each statement costs the
 * API a node-postgres round trip and the server a protocol exchange (docs/benchmark.md). Only for a
 * statement PostgreSQL keeps a plan of (db/postgres.ts plannedPerCall): planning the rows' joins
 * costs about 1 ms, which a statement planned per call would pay each time.
 */
export function pageRowsOf(db: Db, ids: SQLWrapper): PageRowsOf {
  const statement = rowsQuery(db, pageExtras(onPg()), sql`${users.id} IN ${ids}`);
  return async (params) => {
    const rows = (await allRows(statement, params)) as unknown as RawPageRow<object>[];
    return rows.map((r) => toPageRow(r)).sort((a, b) => b.id - a.id);
  };
}
const pageStatement = perDb((db) => pageRowsWith(db, {}));

/**
 * A page's rows in the order given, with their memberships and paid flags read in the same
 * statement on both engines. On PostgreSQL each statement saved spares the API about 50 µs of
 * node-postgres besides the server's work; on SQLite the server's CPU a request measured the same
 * either way (a user's details 556–589 against 561–566 µs, random users pages 815–840 against
 * 789–857 µs, docs/benchmark.md), so one path serves both and the list has no second way to build them.
 */
export async function pageRowsByIds(db: Db, ids: number[]): Promise<PageRow[]> {
  return await pageStatement(db)(ids);
}
