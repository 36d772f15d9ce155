import { categoryOrder, PERMISSION_CATEGORIES, normalizeText, type Permission, type RolePermission } from '@doanhoi/shared';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { permissions, rolePermissions } from '../db/tables/roles';

type Reader = Pick<Db, 'select'>;

/** Accent-stripped search text of a role (name and display name), kept on every write. */
export function roleSearchText(name: string, displayName: string): string {
  return normalizeText(`${name} ${displayName}`);
}

/** The category display order of 000 §2 as SQL, so permissions sort in the query. */
function categoryRank(): SQL<number> {
  const whens = PERMISSION_CATEGORIES.map((c) => sql`WHEN ${c} THEN ${categoryOrder(c)}`);
  return sql<number>`CASE ${permissions.category} ${sql.join(whens, sql` `)} ELSE ${PERMISSION_CATEGORIES.length} END`;
}

const permissionOrder = () => [asc(categoryRank()), asc(permissions.sortOrder), asc(permissions.id)];

function toPermission(r: typeof permissions.$inferSelect): Permission {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    category: r.category,
    context: r.context,
    isActive: r.isActive,
    sortOrder: r.sortOrder,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** Active permissions in the order the role form groups them (category, then sortOrder). */
export function availablePermissions(db: Reader): Permission[] {
  return db
    .select()
    .from(permissions)
    .where(eq(permissions.isActive, true))
    .orderBy(...permissionOrder())
    .all()
    .map(toPermission);
}

/** A role's active permissions (what it confers), in form order. */
export function permissionsOfRole(db: Reader, roleId: number): RolePermission[] {
  return db
    .select({
      id: permissions.id,
      code: permissions.code,
      name: permissions.name,
      category: permissions.category,
      context: permissions.context,
    })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(and(eq(rolePermissions.roleId, roleId), eq(permissions.isActive, true)))
    .orderBy(...permissionOrder())
    .all();
}

/** Active permission codes of each role, in one query. */
export function activeCodesByRole(db: Reader, roleIds: number[]): Map<number, string[]> {
  const out = new Map<number, string[]>(roleIds.map((id) => [id, []]));
  if (roleIds.length === 0) return out;
  const rows = db
    .select({ roleId: rolePermissions.roleId, code: permissions.code })
    .from(rolePermissions)
    .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
    .where(and(inArray(rolePermissions.roleId, roleIds), eq(permissions.isActive, true)))
    .orderBy(...permissionOrder())
    .all();
  for (const r of rows) out.get(r.roleId)!.push(r.code);
  return out;
}

/** id → code of the permissions with these ids (unknown ids are absent). */
export function permissionCodes(db: Reader, ids: number[]): Map<number, string> {
  if (ids.length === 0) return new Map();
  const rows = db.select({ id: permissions.id, code: permissions.code }).from(permissions).where(inArray(permissions.id, ids)).all();
  return new Map(rows.map((r) => [r.id, r.code]));
}
