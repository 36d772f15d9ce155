/**
 * A users-screen row by id: the user's public columns with the class and department names
 * (users/list.ts pages, the detail, the profile). On PostgreSQL a page's rows also carry the
 * active memberships and the paid flag (pageRowsByIds): one statement where SQLite runs three.
 */
import type { UserListItem } from '@doanhoi/shared';
import { eq, sql } from 'drizzle-orm';
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
 * PostgreSQL's page extras, per row: the active memberships as [organization, path] pairs in
 * membership order, and whether a fee or an order of the user is PAID (users/paid.ts's rule).
 */
const pageExtras = {
  memberships: sql<
    [number, string][] | null
  >`(SELECT json_agg(json_build_array(${organizationMembers.organizationId}, ${organizations.path}) ORDER BY ${organizationMembers.id})
    FROM ${organizationMembers} JOIN ${organizations} ON ${organizations.id} = ${organizationMembers.organizationId}
    WHERE ${organizationMembers.userId} = ${users.id} AND ${organizationMembers.isActive} = true)`,
  // Scalar subqueries, not EXISTS: PostgreSQL may run an EXISTS as a hashed subplan, and did for
  // payment_orders on the bench (a sequential scan of its 20k PAID rows per page, 9 ms a statement);
  // a scalar subquery stays an index probe per row (0.3 ms the page).
  paid: sql<boolean>`(coalesce((SELECT true FROM ${paymentAssignments} WHERE ${paymentAssignments.userId} = ${users.id} AND ${paymentAssignments.status} = 'PAID' LIMIT 1), false)
    OR coalesce((SELECT true FROM ${paymentOrders} WHERE ${paymentOrders.userId} = ${users.id} AND ${paymentOrders.status} = 'PAID' LIMIT 1), false))`,
};

// One statement for any number of ids: they arrive as one JSON array.
const rowsQuery = <T extends object>(db: Db, extra: T) =>
  db
    .select({ ...rowColumns, ...extra })
    .from(users)
    .leftJoin(classes, eq(classes.id, users.classId))
    .leftJoin(managementDepartment, eq(managementDepartment.id, users.managementDepartmentId))
    .leftJoin(trainingDepartment, eq(trainingDepartment.id, users.trainingDepartmentId))
    .where(inJsonIds(users.id, 'ids'))
    .prepare();
const rowsStatement = perDb((db) => rowsQuery(db, {}));
const pageStatement = perDb((db) => rowsQuery(db, pageExtras));

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

/** A list page's row: with its memberships and paid flag when the row's statement read them (PostgreSQL). */
export type PageRow = UserListRow & { memberOf?: UserListItem['memberOf']; paid?: boolean };

/** An active membership as the list answers it: the organization and its ancestors. */
export const memberOfEntry = (organizationId: number, path: string) => ({
  organizationId,
  ancestorIds: pathIds(path).filter((o) => o !== organizationId),
});

/**
 * A page's rows in the order given. PostgreSQL reads their memberships and paid flags in the same
 * statement (each statement costs the API about 50 µs of node-postgres besides the server's own
 * work); SQLite's in-process statements cost less than the correlated subqueries, so it reads
 * them apart (users/listing.ts).
 */
export async function pageRowsByIds(db: Db, ids: number[]): Promise<PageRow[]> {
  if (!onPg()) return rowsByIds(db, ids);
  if (ids.length === 0) return [];
  const rows = await allRows(pageStatement(db), { ids: JSON.stringify(ids) });
  return inOrder(
    ids,
    rows.map(({ memberships, paid, ...r }) => ({
      ...r,
      memberOf: (memberships ?? []).map(([organizationId, path]) => memberOfEntry(organizationId, path)),
      paid,
    })),
  );
}
