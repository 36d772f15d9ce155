/**
 * The roles domain's reference data: the permission catalogue (shared) mirrored into its table,
 * and the default roles of data/seed/default-roles.json. Used by the start-up seed and by
 * POST /roles/seed-defaults.
 */
import { PERMISSIONS } from '@doanhoi/shared';
import { eq, inArray } from 'drizzle-orm';
import { invalidateActors } from '../access/actor';
import type { Db } from '../db/client';
import { readSeedFile } from '../lib/seed-file';
import { roleSearchText } from './permissions';
import { permissions, rolePermissions, roles } from '../db/tables/roles';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';

interface DefaultRole {
  name: string;
  displayName: string;
  description?: string;
  isSystemRole?: boolean;
  permissions: '*' | string[];
}

export async function seedPermissions(db: Db): Promise<void> {
  await withTransaction(db, async (tx) => {
    for (const p of PERMISSIONS) {
      await runQuery(
        tx
          .insert(permissions)
          .values({ code: p.code, name: p.name, category: p.category, context: p.context, sortOrder: p.sortOrder })
          .onConflictDoUpdate({
            target: permissions.code,
            set: { name: p.name, category: p.category, context: p.context, sortOrder: p.sortOrder },
          }),
      );
    }
  });
}

/**
 * Creates missing default roles with their permissions; keeps system roles complete. Existing
 * non-system roles are left as administrators edited them.
 */
export async function seedDefaultRoles(db: Db): Promise<{ created: string[]; updated: string[] }> {
  const defaults = readSeedFile<DefaultRole[]>('default-roles.json');
  const created: string[] = [];
  const updated: string[] = [];
  await withTransaction(db, async (tx) => {
    const allPerms = await allRows(tx.select({ id: permissions.id, code: permissions.code }).from(permissions));
    const idOf = new Map(allPerms.map((p) => [p.code, p.id]));
    for (const d of defaults) {
      const wanted =
        d.permissions === '*' ? allPerms.map((p) => p.id) : d.permissions.map((c) => idOf.get(c)).filter((x): x is number => !!x);
      const existing = await firstRow(tx.select().from(roles).where(eq(roles.name, d.name)));
      if (existing && !existing.isSystemRole) continue;
      let roleId = existing?.id;
      if (!roleId) {
        roleId = (
          await firstRow(
            tx
              .insert(roles)
              .values({
                name: d.name,
                displayName: d.displayName,
                description: d.description ?? null,
                isSystemRole: !!d.isSystemRole,
                searchText: roleSearchText(d.name, d.displayName),
              })
              .returning({ id: roles.id }),
          )
        ).id;
        created.push(d.name);
      } else updated.push(d.name);
      for (const pid of wanted) await runQuery(tx.insert(rolePermissions).values({ roleId, permissionId: pid }).onConflictDoNothing());
    }
  });
  invalidateActors();
  return { created, updated };
}

/** Ids of permissions by code (tests build roles with them). */
export async function permissionIds(db: Db, codes: string[]): Promise<number[]> {
  if (codes.length === 0) return [];
  return (await allRows(db.select({ id: permissions.id }).from(permissions).where(inArray(permissions.code, codes)))).map((r) => r.id);
}
