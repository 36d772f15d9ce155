import { SUPER_ADMIN_PERMISSION, SUPER_ADMIN_ROLE, type RoleGrant } from '@doanhoi/shared';
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { perDb } from '../lib/per-db';
import { permissions, rolePermissions, roles, userRoles } from '../db/tables/roles';
import { allRows } from '../db/engine';

export interface UserRoleGrant extends RoleGrant {
  userRoleId: number;
  roleId: number;
  displayName: string;
  isActive: boolean;
}

// Built once per database: building drizzle's SQL cost more than running this query.
const grantsStatement = perDb((db) =>
  db
    .select({
      userRoleId: userRoles.id,
      roleId: roles.id,
      name: roles.name,
      displayName: roles.displayName,
      organizationId: userRoles.organizationId,
      linkActive: userRoles.isActive,
      roleActive: roles.isActive,
      code: permissions.code,
      permActive: permissions.isActive,
    })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.roleId))
    .leftJoin(rolePermissions, eq(rolePermissions.roleId, roles.id))
    .leftJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(eq(userRoles.userId, sql.placeholder('userId')))
    .prepare(),
);

/**
 * A user's role links with their permission codes, in one query. A link counts as active only
 * when both the link and the role are active.
 */
export async function loadRoleGrants(db: Db, userId: number): Promise<UserRoleGrant[]> {
  const rows = await allRows(grantsStatement(db), { userId });
  const byLink = new Map<number, UserRoleGrant>();
  for (const r of rows) {
    let g = byLink.get(r.userRoleId);
    if (!g) {
      g = {
        userRoleId: r.userRoleId,
        roleId: r.roleId,
        name: r.name,
        displayName: r.displayName,
        organizationId: r.organizationId,
        isActive: r.linkActive && r.roleActive,
        permissions: [],
      };
      byLink.set(r.userRoleId, g);
    }
    if (r.code && r.permActive) (g.permissions as string[]).push(r.code);
  }
  return [...byLink.values()];
}

/**
 * Users who are super admins (a global, active super_admin role or system.access_admin), among
 * `among` when given (callers chunk long lists); without it, all of them (a handful).
 */
export async function superAdminIds(db: Pick<Db, 'selectDistinct'>, among?: number[]): Promise<Set<number>> {
  const rows = await allRows(
    db
      .selectDistinct({ userId: userRoles.userId })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .leftJoin(rolePermissions, eq(rolePermissions.roleId, roles.id))
      .leftJoin(permissions, and(eq(permissions.id, rolePermissions.permissionId), eq(permissions.isActive, true)))
      .where(
        and(
          among ? inArray(userRoles.userId, among) : undefined,
          isNull(userRoles.organizationId),
          eq(userRoles.isActive, true),
          eq(roles.isActive, true),
          or(eq(roles.name, SUPER_ADMIN_ROLE), eq(permissions.code, SUPER_ADMIN_PERMISSION)),
        ),
      ),
  );
  return new Set(rows.map((r) => r.userId));
}
