/** Test helpers for the roles API tests (not imported by the app). */
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { organizationMembers } from '../db/tables/organizations';
import type { TestApp } from '../test/harness';
import { userSearchText } from '../users/search';
import { users } from '../db/tables/users';
import { roles } from '../db/tables/roles';
import { firstRow, runQuery } from '../db/engine';

let seq = 0;
let nameSeq = 0;

/** `p` with a number no other call in this test file gets, for role names and user codes. */
export const uniq = (p: string) => `${p}_${++nameSeq}`;

/** POST /api/roles as `token` (the admin by default), expecting 201; answers the created role. */
export async function postRole(t: TestApp, body: Record<string, unknown>, token = t.adminToken) {
  const res = await t.request('POST', '/api/roles', { token, body });
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string; permissions: { code: string }[] };
}

/** A user row inserted directly (no password), an active member of each organization given. */
export async function insertUser(t: TestApp, ...orgIds: number[]): Promise<number> {
  seq += 1;
  const base = { code: `RU${seq}`, familyName: 'Trần Thị', givenName: `Mai${seq}`, email: `ru${seq}@example.vn`, phone: '0987654321' };
  const id = (
    await firstRow(
      t.db
        .insert(users)
        .values({ ...base, searchText: userSearchText(base) })
        .returning({ id: users.id }),
    )
  ).id;
  for (const organizationId of orgIds) await runQuery(t.db.insert(organizationMembers).values({ userId: id, organizationId }));
  return id;
}

export async function roleId(t: TestApp, name: string): Promise<number> {
  return (await firstRow(t.db.select({ id: roles.id }).from(roles).where(eq(roles.name, name))))!.id;
}

/**
 * root (Đoàn trường) → F1 (Đoàn khoa) → C1 (chi đoàn), and root → F2. `orgAdmin` holds the
 * default org_admin role in F1 (users.roles.manage and every organization-context code but none of
 * the system ones); `noRoles` holds nothing.
 */
export async function grantWorld(t: TestApp, prefix: string) {
  const root = await t.createOrg('doan_truong', `${prefix}-ROOT`);
  const f1 = await t.createOrg('doan_co_so', `${prefix}-F1`, root, `Đoàn khoa ${prefix} 1`);
  const c1 = await t.createOrg('chi_doan', `${prefix}-F1-C1`, f1, `Chi đoàn ${prefix} 1`);
  const f2 = await t.createOrg('doan_co_so', `${prefix}-F2`, root, `Đoàn khoa ${prefix} 2`);
  const ids = {
    superAdmin: await roleId(t, 'super_admin'),
    orgAdmin: await roleId(t, 'org_admin'),
    staff: await roleId(t, 'staff'),
    member: await roleId(t, 'member'),
  };
  const orgAdmin = await t.createUser(`${prefix}OA`, [{ roleId: ids.orgAdmin, organizationId: f1 }]);
  const noRoles = await t.createUser(`${prefix}NR`);
  return { root, f1, c1, f2, roles: ids, orgAdmin, noRoles };
}
