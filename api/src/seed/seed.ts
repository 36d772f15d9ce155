/**
 * Idempotent seed: permission catalogue, default roles, the super admin, and (optionally) the demo.
 * It sits above the domains (it uses their tables and services), so db/ depends on none of them.
 */
import { eq } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { hashPassword } from '../lib/passwords';
import type { Db } from '../db/client';
import type { Env } from '../env';
import { seedDefaultRoles, seedPermissions } from '../roles/defaults';
import { roles, userRoles } from '../db/tables/roles';
import { userSearchText } from '../users/search';
import { users } from '../db/tables/users';
import { seedDemo } from './seed-demo';
import { seedPaymentsDemo } from './seed-payments-demo';
import { firstRow, runQuery, withTransaction } from '../db/engine';

/** The super admin account; a password is generated (and reported once) when none is configured. */
export async function seedAdmin(db: Db, env: Env): Promise<{ email: string; generatedPassword?: string; created: boolean }> {
  const email = env.ADMIN_EMAIL.toLowerCase();
  const existing = await firstRow(db.select({ id: users.id }).from(users).where(eq(users.email, email)));
  if (existing) return { email, created: false };
  const generatedPassword = env.ADMIN_PASSWORD ? undefined : randomBytes(9).toString('base64url');
  const passwordHash = await hashPassword(env.ADMIN_PASSWORD ?? generatedPassword!);
  await withTransaction(db, async (tx) => {
    const base = { code: 'ADMIN', familyName: 'Quản trị', givenName: 'Hệ thống', email, phone: null };
    const id = (
      await firstRow(
        tx
          .insert(users)
          .values({ ...base, passwordHash, userType: 'staff', searchText: userSearchText(base) })
          .returning({ id: users.id }),
      )
    ).id;
    const superAdmin = await firstRow(tx.select({ id: roles.id }).from(roles).where(eq(roles.name, 'super_admin')));
    if (superAdmin) await runQuery(tx.insert(userRoles).values({ userId: id, roleId: superAdmin.id, organizationId: null }));
  });
  return { email, generatedPassword, created: true };
}

export async function seed(db: Db, env: Env) {
  await seedPermissions(db);
  await seedDefaultRoles(db);
  const admin = await seedAdmin(db, env);
  let demo = false;
  if (env.SEED_DEMO) {
    demo = await seedDemo(db);
    await seedPaymentsDemo(db, env);
  }
  return { admin, demo };
}

export { seedDefaultRoles, seedPermissions };
