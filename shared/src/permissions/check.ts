/**
 * The permission rule of 000 §6, shared by the API (enforcement) and the admin (what to show).
 *
 * - A code is held if any active role holds it.
 * - A global role (organizationId null) counts everywhere.
 * - An organization role counts in its organization and in every organization beneath it
 *   (a faculty union admin manages its chi đoàn), never above or beside it.
 * - 'system' permissions count only from global roles, so an organization role cannot make anyone a super admin.
 * - A super admin (role super_admin or system.access_admin, granted globally) holds everything.
 */
import { isSystemPermission, PERMISSIONS, SUPER_ADMIN_PERMISSION, SUPER_ADMIN_ROLE } from './catalogue';

export interface RoleGrant {
  name: string;
  organizationId: number | null;
  permissions: readonly string[];
  isActive?: boolean;
}

/** Where a check is made: an organization and its ancestors (nearest first or any order). */
export interface OrgContext {
  organizationId: number;
  ancestorIds: readonly number[];
}

function active(roles: readonly RoleGrant[] | null | undefined): RoleGrant[] {
  return (roles ?? []).filter((r) => r.isActive !== false);
}

/**
 * Only global grants make a super admin: whoever may assign roles inside an organization must not
 * be able to create one by linking the super_admin role to that organization.
 */
export function isSuperAdmin(roles: readonly RoleGrant[] | null | undefined): boolean {
  return active(roles).some(
    (r) => r.organizationId == null && (r.name === SUPER_ADMIN_ROLE || r.permissions.includes(SUPER_ADMIN_PERMISSION)),
  );
}

export function roleAppliesIn(role: RoleGrant, ctx?: OrgContext | null): boolean {
  if (role.organizationId == null) return true;
  if (!ctx) return false;
  return role.organizationId === ctx.organizationId || ctx.ancestorIds.includes(role.organizationId);
}

function grants(role: RoleGrant, code: string, ctx?: OrgContext | null): boolean {
  if (!role.permissions.includes(code)) return false;
  if (isSystemPermission(code)) return role.organizationId == null;
  return roleAppliesIn(role, ctx);
}

export function hasPermission(roles: readonly RoleGrant[] | null | undefined, code: string, ctx?: OrgContext | null): boolean {
  const list = active(roles);
  if (list.length === 0) return false;
  if (isSuperAdmin(list)) return true;
  return list.some((r) => grants(r, code, ctx));
}

export function hasAnyPermission(
  roles: readonly RoleGrant[] | null | undefined,
  codes: readonly string[],
  ctx?: OrgContext | null,
): boolean {
  return codes.some((c) => hasPermission(roles, c, ctx));
}

/** Without a user or roles this is false even for an empty list (every check is false then). */
export function hasAllPermissions(
  roles: readonly RoleGrant[] | null | undefined,
  codes: readonly string[],
  ctx?: OrgContext | null,
): boolean {
  if (active(roles).length === 0) return false;
  return codes.every((c) => hasPermission(roles, c, ctx));
}

/**
 * The de-duplicated union of codes that apply in the context. A super admin holds every code
 * (as hasPermission answers), even when their roles list only system.access_admin.
 */
export function effectivePermissions(roles: readonly RoleGrant[] | null | undefined, ctx?: OrgContext | null): string[] {
  const list = active(roles);
  const superAdmin = isSuperAdmin(list);
  const out = new Set<string>(superAdmin ? PERMISSIONS.map((p) => p.code) : []);
  for (const r of list) {
    for (const code of r.permissions) if (superAdmin || grants(r, code, ctx)) out.add(code);
  }
  return [...out].sort();
}

/**
 * Where a code is held: everywhere, or only in these organizations (and their descendants).
 * Lists use it to scope their rows when the request names no organization.
 */
export type PermissionScope = { all: true } | { all: false; organizationIds: number[] };

export function permissionScope(roles: readonly RoleGrant[] | null | undefined, code: string): PermissionScope {
  const list = active(roles);
  if (isSuperAdmin(list)) return { all: true };
  const holders = list.filter((r) => r.permissions.includes(code));
  if (holders.some((r) => r.organizationId == null)) return { all: true };
  if (isSystemPermission(code)) return { all: false, organizationIds: [] };
  const ids = new Set<number>();
  for (const r of holders) if (r.organizationId != null) ids.add(r.organizationId);
  return { all: false, organizationIds: [...ids] };
}

/** True when the code is held somewhere (globally or in at least one organization). */
export function holdsAnywhere(roles: readonly RoleGrant[] | null | undefined, code: string): boolean {
  const s = permissionScope(roles, code);
  return s.all || s.organizationIds.length > 0;
}
