import { categoryOrder, PERMISSION_CATEGORIES, normalizeText, type Permission, type RolePermission } from '@doanhoi/shared';
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { permissions, rolePermissions } from '../db/tables/roles';
import { allRows } from '../db/engine';

type Reader = Pick<Db, 'select'>;

/** Accent-stripped search text of a role (name and display name), kept on every write. */
export function roleSearchText(name: string, displayName: string): string {
  return normalizeText(`${name} ${displayName}`);
}

/**
 * The category display order of 000 §2 as SQL, so permissions sort in the query. The ranks are
 * integer literals: as parameters PostgreSQL would type the CASE as text and sort 10 before 2.
 */
function categoryRank(): SQL<number> {
  const rank = (n: number) => sql.raw(String(Math.trunc(n)));
  const whens = PERMISSION_CATEGORIES.map((c) => sql`WHEN ${c} THEN ${rank(categoryOrder(c))}`);
  return sql<number>`CASE ${permissions.category} ${sql.join(whens, sql` `)} ELSE ${rank(PERMISSION_CATEGORIES.length)} END`;
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
export async function availablePermissions(db: Reader): Promise<Permission[]> {
  return (
    await allRows(
      db
        .select()
        .from(permissions)
        .where(eq(permissions.isActive, true))
        .orderBy(...permissionOrder()),
    )
  ).map(toPermission);
}

/** A role's active permissions (what it confers), in form order. */
export async function permissionsOfRole(db: Reader, roleId: number): Promise<RolePermission[]> {
  return await allRows(
    db
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
      .orderBy(...permissionOrder()),
  );
}

/** Active permission codes of each role, in one query. */
export async function activeCodesByRole(db: Reader, roleIds: number[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>(roleIds.map((id) => [id, []]));
  if (roleIds.length === 0) return out;
  const rows = await allRows(
    db
      .select({ roleId: rolePermissions.roleId, code: permissions.code })
      .from(rolePermissions)
      .innerJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
      .where(and(inArray(rolePermissions.roleId, roleIds), eq(permissions.isActive, true)))
      .orderBy(...permissionOrder()),
  );
  for (const r of rows) out.get(r.roleId)!.push(r.code);
  return out;
}

/** id → code of the permissions with these ids (unknown ids are absent). */
export async function permissionCodes(db: Reader, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await allRows(
    db.select({ id: permissions.id, code: permissions.code }).from(permissions).where(inArray(permissions.id, ids)),
  );
  return new Map(rows.map((r) => [r.id, r.code]));
}
