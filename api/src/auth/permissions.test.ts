/** GET /api/auth/me/permissions (000 §7): roles with their organizations, effective codes per organization. */
import { PERMISSIONS } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { roles, userRoles } from '../db/tables/roles';
import { makeTestApp, type TestApp } from '../test/harness';
import { firstRow, runQuery } from '../db/engine';

/*
 *   DT  Đoàn trường
 *   ├─ DCS  Đoàn khoa CNTT      ← faculty_admin is held here
 *   │   └─ CD  Chi đoàn 66IT1
 *   └─ DCS2 Đoàn khoa Kinh tế   (sibling)
 */
let t: TestApp;
let org: { DT: number; DCS: number; CD: number; DCS2: number };
let user: { id: number; token: string };

beforeAll(async () => {
  t = await makeTestApp();
  const DT = await t.createOrg('doan_truong', 'DT');
  const DCS = await t.createOrg('doan_co_so', 'DCS', DT);
  const CD = await t.createOrg('chi_doan', 'CD', DCS);
  const DCS2 = await t.createOrg('doan_co_so', 'DCS2', DT);
  org = { DT, DCS, CD, DCS2 };
  const viewer = await t.createRole('viewer', ['dashboard.access']);
  const facultyAdmin = await t.createRole('faculty_admin', [
    'users.access',
    'users.update',
    'users.access',
    'organizations.create',
    'permissions.access',
  ]);
  const dormant = await t.createRole('dormant', ['classes.delete']);
  await runQuery(t.db.update(roles).set({ isActive: false }).where(eq(roles.id, dormant)));
  user = await t.createUser('PM1', [{ roleId: viewer }, { roleId: facultyAdmin, organizationId: DCS }, { roleId: dormant }]);
});

const perms = (token: string | undefined, organizationId?: number | string) =>
  t.request('GET', `/api/auth/me/permissions${organizationId === undefined ? '' : `?organizationId=${organizationId}`}`, { token });

describe('GET /api/auth/me/permissions', () => {
  it('401 without a token', async () => {
    expect((await perms(undefined)).status).toBe(401);
  });

  it('without an organization: every role listed, only global codes effective', async () => {
    const res = await perms(user.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ isSuperAdmin: false, organizationId: null, ancestorIds: [] });
    expect(res.body.permissions).toEqual(['dashboard.access']);
    const byName = Object.fromEntries(res.body.roles.map((r: { name: string }) => [r.name, r]));
    expect(Object.keys(byName).sort()).toEqual(['dormant', 'faculty_admin', 'viewer']);
    expect(byName.viewer).toMatchObject({ organizationId: null, isActive: true, permissions: [{ code: 'dashboard.access' }] });
    expect(byName.faculty_admin.organizationId).toBe(org.DCS);
    expect(byName.faculty_admin.permissions.map((p: { code: string }) => p.code).sort()).toEqual(
      ['organizations.create', 'permissions.access', 'users.access', 'users.update'].sort(),
    );
    expect(byName.dormant.isActive).toBe(false);
  });

  it('in the role’s organization: its codes apply, except system-context ones', async () => {
    const res = await perms(user.token, org.DCS);
    expect(res.status).toBe(200);
    expect(res.body.organizationId).toBe(org.DCS);
    expect(res.body.ancestorIds).toEqual([org.DT]);
    expect(res.body.permissions).toEqual(['dashboard.access', 'users.access', 'users.update']);
  });

  it('in a descendant organization: the role applies too', async () => {
    const res = await perms(user.token, org.CD);
    expect(res.status).toBe(200);
    expect([...res.body.ancestorIds].sort()).toEqual([org.DT, org.DCS].sort());
    expect(res.body.permissions).toEqual(['dashboard.access', 'users.access', 'users.update']);
  });

  it('in the parent or a sibling: only the global role applies', async () => {
    for (const id of [org.DT, org.DCS2]) {
      const res = await perms(user.token, id);
      expect(res.status).toBe(200);
      expect(res.body.permissions, String(id)).toEqual(['dashboard.access']);
    }
    expect((await perms(user.token, org.DT)).body.ancestorIds).toEqual([]);
  });

  it('an inactive role link counts nowhere', async () => {
    const u = await t.createUser('PM2', [{ roleId: await t.createRole('linked', ['classes.access']), organizationId: org.DCS }]);
    expect((await perms(u.token, org.DCS)).body.permissions).toEqual(['classes.access']);
    await runQuery(t.db.update(userRoles).set({ isActive: false }).where(eq(userRoles.userId, u.id)));
    const res = await perms(u.token, org.DCS);
    expect(res.body.permissions).toEqual([]);
    expect(res.body.roles[0].isActive).toBe(false);
  });

  it('404 for an unknown organization, 400 for a malformed id', async () => {
    const missing = await perms(user.token, 999_999);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Không tìm thấy tổ chức');
    for (const bad of ['abc', '0', '-3']) expect((await perms(user.token, bad)).status, bad).toBe(400);
  });

  it('a user without roles gets empty lists', async () => {
    const u = await t.createUser('PM3');
    const res = await perms(u.token, org.CD);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ roles: [], permissions: [], isSuperAdmin: false });
  });

  it('the super admin holds every code everywhere', async () => {
    const all = PERMISSIONS.map((p) => p.code).sort();
    for (const id of [undefined, org.CD]) {
      const res = await perms(t.adminToken, id);
      expect(res.body.isSuperAdmin).toBe(true);
      expect(res.body.permissions).toEqual(all);
    }
  });

  it('system.access_admin from a global role makes a super admin; from an organization role it does not', async () => {
    const itAdmin = await t.createRole('it_admin', ['system.access_admin']);
    const global = await t.createUser('PM4', [{ roleId: itAdmin }]);
    const res = await perms(global.token);
    expect(res.body.isSuperAdmin).toBe(true);
    expect(res.body.permissions).toContain('users.delete');

    const scoped = await t.createUser('PM5', [{ roleId: itAdmin, organizationId: org.DCS }]);
    const r2 = await perms(scoped.token, org.DCS);
    expect(r2.body.isSuperAdmin).toBe(false);
    expect(r2.body.permissions).toEqual([]);
  });

  it('the super_admin role linked to an organization does not make a super admin', async () => {
    const superAdmin = (await firstRow(t.db.select().from(roles).where(eq(roles.name, 'super_admin'))))!;
    const u = await t.createUser('PM6', [{ roleId: superAdmin.id, organizationId: org.DCS }]);
    const res = await perms(u.token, org.CD);
    expect(res.body.isSuperAdmin).toBe(false);
    expect(res.body.permissions).toContain('users.delete');
    expect(res.body.permissions).not.toContain('organizations.create');
    expect(res.body.permissions).not.toContain('system.access_admin');
    expect((await perms(u.token, org.DCS2)).body.permissions).toEqual([]);
  });
});
