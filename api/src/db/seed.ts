/** Idempotent seed: permission catalogue, default roles, the super admin, and (optionally) the demo. */
import { PERMISSIONS } from '@doanhoi/shared';
import { eq, inArray, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { hashPassword } from '../auth/passwords';
import { REPO_ROOT, type Env } from '../env';
import { roleSearchText } from '../roles/permissions';
import { permissions, rolePermissions, roles, userRoles } from '../roles/schema';
import { userSearchText } from '../users/search';
import { users } from '../users/schema';
import type { Db } from './client';
import { seedDemo } from './seed-demo';
import { seedPaymentsDemo } from './seed-payments-demo';

interface DefaultRole {
  name: string;
  displayName: string;
  description?: string;
  isSystemRole?: boolean;
  permissions: '*' | string[];
}

export function readSeedFile<T>(name: string): T {
  return JSON.parse(readFileSync(resolve(REPO_ROOT, 'data/seed', name), 'utf8')) as T;
}

export function seedPermissions(db: Db): void {
  db.transaction((tx) => {
    for (const p of PERMISSIONS) {
      tx.insert(permissions)
        .values({ code: p.code, name: p.name, category: p.category, context: p.context, sortOrder: p.sortOrder })
        .onConflictDoUpdate({
          target: permissions.code,
          set: { name: p.name, category: p.category, context: p.context, sortOrder: p.sortOrder },
        })
        .run();
    }
  });
}

/**
 * Creates missing default roles with their permissions; keeps system roles complete. Existing
 * non-system roles are left as administrators edited them.
 */
export function seedDefaultRoles(db: Db): { created: string[]; updated: string[] } {
  const defaults = readSeedFile<DefaultRole[]>('default-roles.json');
  const created: string[] = [];
  const updated: string[] = [];
  db.transaction((tx) => {
    const allPerms = tx.select({ id: permissions.id, code: permissions.code }).from(permissions).all();
    const idOf = new Map(allPerms.map((p) => [p.code, p.id]));
    for (const d of defaults) {
      const wanted = d.permissions === '*' ? allPerms.map((p) => p.id) : d.permissions.map((c) => idOf.get(c)).filter((x): x is number => !!x);
      const existing = tx.select().from(roles).where(eq(roles.name, d.name)).get();
      if (existing && !existing.isSystemRole) continue;
      let roleId = existing?.id;
      if (!roleId) {
        roleId = tx
          .insert(roles)
          .values({
            name: d.name,
            displayName: d.displayName,
            description: d.description ?? null,
            isSystemRole: !!d.isSystemRole,
            searchText: roleSearchText(d.name, d.displayName),
          })
          .returning({ id: roles.id })
          .get().id;
        created.push(d.name);
      } else updated.push(d.name);
      for (const pid of wanted) tx.insert(rolePermissions).values({ roleId, permissionId: pid }).onConflictDoNothing().run();
    }
  });
  return { created, updated };
}

/** The super admin account; a password is generated (and reported once) when none is configured. */
export async function seedAdmin(db: Db, env: Env): Promise<{ email: string; generatedPassword?: string; created: boolean }> {
  const email = env.ADMIN_EMAIL.toLowerCase();
  const existing = db.select({ id: users.id }).from(users).where(eq(users.email, email)).get();
  if (existing) return { email, created: false };
  const generatedPassword = env.ADMIN_PASSWORD ? undefined : randomBytes(9).toString('base64url');
  const passwordHash = await hashPassword(env.ADMIN_PASSWORD ?? generatedPassword!);
  db.transaction((tx) => {
    const base = { code: 'ADMIN', familyName: 'Quản trị', givenName: 'Hệ thống', email, phone: null };
    const id = tx
      .insert(users)
      .values({ ...base, passwordHash, userType: 'staff', searchText: userSearchText(base) })
      .returning({ id: users.id })
      .get().id;
    const superAdmin = tx.select({ id: roles.id }).from(roles).where(eq(roles.name, 'super_admin')).get();
    if (superAdmin) tx.insert(userRoles).values({ userId: id, roleId: superAdmin.id, organizationId: null }).run();
  });
  return { email, generatedPassword, created: true };
}

export async function seed(db: Db, env: Env) {
  seedPermissions(db);
  seedDefaultRoles(db);
  const admin = await seedAdmin(db, env);
  let demo = false;
  if (env.SEED_DEMO) {
    demo = await seedDemo(db);
    seedPaymentsDemo(db, env);
  }
  return { admin, demo };
}

/** Test helper: ids of permissions by code. */
export function permissionIds(db: Db, codes: string[]): number[] {
  if (codes.length === 0) return [];
  return db.select({ id: permissions.id }).from(permissions).where(inArray(permissions.code, codes)).all().map((r) => r.id);
}

export function countRows(db: Db, table: typeof users | typeof roles): number {
  return db.select({ n: sql<number>`count(*)` }).from(table).get()!.n;
}
