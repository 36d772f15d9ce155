import type { RoleGrant } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { permissions, rolePermissions, roles, userRoles } from './schema';

export interface UserRoleGrant extends RoleGrant {
  userRoleId: number;
  roleId: number;
  displayName: string;
  isActive: boolean;
}

/**
 * A user's role links with their permission codes, in one query. A link counts as active only
 * when both the link and the role are active.
 */
export function loadRoleGrants(db: Db, userId: number): UserRoleGrant[] {
  const rows = db
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
    .where(eq(userRoles.userId, userId))
    .all();
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
