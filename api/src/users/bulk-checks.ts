/**
 * What a bulk change of users (bulk-update.ts) reads before deciding: the rows a selection or a
 * filter holds, and which of them the caller may not change. Set-based: one statement per
 * question for the whole selection, never one per row.
 */
import { SUPER_ADMIN_PERMISSION, SUPER_ADMIN_ROLE } from '@doanhoi/shared';
import type { UserBulkFilter } from '@doanhoi/shared/schemas/users-bulk';
import { and, eq, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { inJsonValues } from '../db/sqlite';
import type { Actor } from '../lib/context';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { permissions, rolePermissions, roles, userRoles } from '../db/tables/roles';
import { listPage, matchingIds } from './list';
import { listFilterFor } from './listing';
import { subtreeRange, type UserScope } from '../access/scope';
import { users } from '../db/tables/users';
import { allRows } from '../db/engine';

type Reader = Pick<Db, 'select' | 'selectDistinct'>;

/** The filter's ids, newest first, when there are at most `cap`; otherwise only how many. */
export async function filterSelection(db: Db, actor: Actor, q: UserBulkFilter, cap: number): Promise<{ ids: number[]; total: number }> {
  const { filter, key } = await listFilterFor(db, actor, q);
  const ids = await matchingIds(db, filter, cap + 1);
  if (ids.length <= cap) return { ids, total: ids.length };
  // Counted in full: the refusal says how many matched (one request, not the list's every page).
  return { ids: [], total: (await listPage(db, filter, key, 1, 0, undefined, true)).total };
}

/** Which of these users the scope reaches (access/scope.ts usersInScope, with the ids bound as one JSON array). */
export async function reached(db: Reader, scope: UserScope, ids: number[]): Promise<Set<number>> {
  if (scope.all) return new Set(ids);
  if (scope.paths.length === 0 || ids.length === 0) return new Set();
  const inSubtrees = or(
    ...scope.paths.map((p) => {
      const [from, to] = subtreeRange(p);
      return and(gte(organizations.path, from), lt(organizations.path, to));
    }),
  );
  const rows = await allRows(
    db
      .selectDistinct({ userId: organizationMembers.userId })
      .from(organizationMembers)
      .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
      .where(and(eq(organizationMembers.isActive, true), inJsonValues(organizationMembers.userId, ids), inSubtrees)),
  );
  return new Set(rows.map((r) => r.userId));
}

export const bulkColumns = {
  id: users.id,
  code: users.code,
  familyName: users.familyName,
  givenName: users.givenName,
  userType: users.userType,
  membershipStatus: users.membershipStatus,
  isActive: users.isActive,
  classId: users.classId,
  managementDepartmentId: users.managementDepartmentId,
  trainingDepartmentId: users.trainingDepartmentId,
};
const selectRows = async (db: Reader, ids: number[]) =>
  await allRows(db.select(bulkColumns).from(users).where(inJsonValues(users.id, ids)));
export type BulkRow = Awaited<ReturnType<typeof selectRows>>[number];

/** The rows of these ids, in the order given (unknown ids left out). */
export async function rowsOf(db: Reader, ids: number[]): Promise<BulkRow[]> {
  if (ids.length === 0) return [];
  const byId = new Map((await selectRows(db, ids)).map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Users among `ids` holding a global super admin link (users/service.ts guardSuperAdminTargets, for many at once). */
export async function superAdmins(db: Reader, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const grantsAll = sql`EXISTS (SELECT 1 FROM ${rolePermissions} JOIN ${permissions} ON ${permissions.id} = ${rolePermissions.permissionId}
    WHERE ${rolePermissions.roleId} = ${roles.id} AND ${permissions.code} = ${SUPER_ADMIN_PERMISSION} AND ${permissions.isActive} = true)`;
  const rows = await allRows(
    db
      .selectDistinct({ userId: userRoles.userId })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(
        and(
          inJsonValues(userRoles.userId, ids),
          eq(userRoles.isActive, true),
          isNull(userRoles.organizationId),
          or(eq(roles.name, SUPER_ADMIN_ROLE), grantsAll),
        ),
      ),
  );
  return new Set(rows.map((r) => r.userId));
}

export interface ActiveMembership {
  userId: number;
  id: number;
  name: string;
  code: string;
  type: (typeof organizations.type)['_']['data'];
  path: string;
}

/** Every active membership of these users, grouped by user (one statement). */
export async function activeMembershipsOf(db: Reader, ids: number[]): Promise<Map<number, ActiveMembership[]>> {
  const out = new Map<number, ActiveMembership[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = await allRows(
    db
      .select({
        userId: organizationMembers.userId,
        id: organizations.id,
        name: organizations.name,
        code: organizations.code,
        type: organizations.type,
        path: organizations.path,
      })
      .from(organizationMembers)
      .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
      .where(and(eq(organizationMembers.isActive, true), inJsonValues(organizationMembers.userId, ids))),
  );
  for (const r of rows) out.get(r.userId)?.push(r);
  return out;
}

/** Organizations' paths by id. */
export async function pathsOf(db: Reader, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  return new Map(
    (
      await allRows(db.select({ id: organizations.id, path: organizations.path }).from(organizations).where(inArray(organizations.id, ids)))
    ).map((o) => [o.id, o.path]),
  );
}
