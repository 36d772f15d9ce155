import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { makeTestApp, type TestApp } from '../test/harness';
import { grantWorld, insertUser } from './fixture';
import { roles, userRoles } from '../db/tables/roles';
import { allRows, runQuery } from '../db/engine';

let t: TestApp;
let w: Awaited<ReturnType<typeof grantWorld>>;

const linksOf = async (userId: number) =>
  await allRows(
    t.db
      .select({ roleId: userRoles.roleId, organizationId: userRoles.organizationId, isActive: userRoles.isActive })
      .from(userRoles)
      .where(eq(userRoles.userId, userId))
      .orderBy(userRoles.roleId, userRoles.organizationId),
  );

const grant = (userId: number, roleAssignments: unknown[], token = t.adminToken) =>
  t.request('POST', `/api/users/${userId}/roles`, { token, body: { roleAssignments } });

beforeAll(async () => {
  t = await makeTestApp();
  w = await grantWorld(t, 'GR');
});

describe('POST /api/users/:id/roles', () => {
  it('grants one link per role and organization, a global link for isGlobal or no organization', async () => {
    const u = await insertUser(t, w.c1);
    const res = await grant(u, [
      { roleIds: [w.roles.staff], organizationIds: [w.f1, w.f2], isGlobal: false },
      { roleIds: [w.roles.member], organizationIds: [], isGlobal: true },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Đã cập nhật vai trò cho người dùng', added: 3, removed: 0 });
    expect(res.body.userRoles).toHaveLength(3);
    const staffF1 = res.body.userRoles.find((l: { organizationId: number | null }) => l.organizationId === w.f1);
    expect(staffF1).toMatchObject({
      roleId: w.roles.staff,
      isActive: true,
      organization: { id: w.f1, name: 'Đoàn khoa GR 1' },
      role: { id: w.roles.staff, name: 'staff', displayName: 'Cán bộ', isActive: true },
    });
    expect(staffF1.role.permissions).toContainEqual({ code: 'users.access' });
    expect(res.body.userRoles.find((l: { roleId: number }) => l.roleId === w.roles.member)).toMatchObject({
      organizationId: null,
      organization: null,
    });
  });

  it('a row marked not global that names no unit is refused, never saved as a university-wide role (issue 25 item 11)', async () => {
    const u = await insertUser(t, w.c1);
    for (const row of [
      { roleIds: [w.roles.staff], organizationIds: [], isGlobal: false },
      { roleIds: [w.roles.staff], isGlobal: false },
    ]) {
      const res = await grant(u, [row]);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('Chọn phạm vi: một hoặc nhiều tổ chức, hoặc Toàn hệ thống');
    }
    expect(await linksOf(u)).toEqual([]);
  });

  it('replaces the links: unlisted ones go, listed ones stay; audited with before and after', async () => {
    const u = await insertUser(t, w.c1);
    await grant(u, [{ roleIds: [w.roles.staff], organizationIds: [w.f1, w.f2] }]);
    const res = await grant(u, [
      { roleIds: [w.roles.staff], organizationIds: [w.f1] },
      { roleIds: [w.roles.member], isGlobal: true },
    ]);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ added: 1, removed: 1 });
    expect(await linksOf(u)).toEqual(
      [
        { roleId: w.roles.staff, organizationId: w.f1, isActive: true },
        { roleId: w.roles.member, organizationId: null, isActive: true },
      ].sort((a, b) => a.roleId - b.roleId),
    );
    const log = (
      await allRows(
        t.db
          .select()
          .from(auditLogs)
          .where(and(eq(auditLogs.action, 'user.roles.grant'), eq(auditLogs.entityId, String(u)))),
      )
    ).at(-1)!;
    expect(JSON.parse(log.before!).map((l: { role: string; organizationId: number }) => [l.role, l.organizationId])).toEqual([
      ['staff', w.f1],
      ['staff', w.f2],
    ]);
    expect(
      JSON.parse(log.after!)
        .map((l: { role: string }) => l.role)
        .sort(),
    ).toEqual(['member', 'staff']);
  });

  it('accepts the older row shape {roleId, organizationId}', async () => {
    const u = await insertUser(t, w.c1);
    const res = await grant(u, [
      { roleId: w.roles.staff, organizationId: w.c1 },
      { roleId: w.roles.member, organizationId: '' },
    ]);
    expect(res.status).toBe(200);
    expect(await linksOf(u)).toContainEqual({ roleId: w.roles.staff, organizationId: w.c1, isActive: true });
    expect(await linksOf(u)).toContainEqual({ roleId: w.roles.member, organizationId: null, isActive: true });
  });

  it('changes what the user may do at once', async () => {
    const u = await t.createUser('GRNOW');
    expect((await t.request('GET', '/api/classes', { token: u.token })).status).toBe(403);
    await grant(u.id, [{ roleIds: [w.roles.staff], isGlobal: true }]);
    expect((await t.request('GET', '/api/classes', { token: u.token })).status).toBe(200);
  });

  it('validates rows: a role each, at most 10, no duplicate role and organization', async () => {
    const u = await insertUser(t, w.c1);
    const noRole = await grant(u, [{ roleIds: [], organizationIds: [w.f1] }]);
    expect(noRole.status).toBe(400);
    expect(noRole.body.message).toContain('Vui lòng chọn vai trò');
    const many = await grant(
      u,
      Array.from({ length: 11 }, () => ({ roleIds: [w.roles.member], organizationIds: [w.f1] })),
    );
    expect(many.status).toBe(400);
    expect(many.body.message).toContain('Tối đa 10 dòng phân quyền');
    const dup = await grant(u, [
      { roleIds: [w.roles.staff], organizationIds: [w.f1] },
      { roleIds: [w.roles.staff], organizationIds: [w.f2, w.f1] },
    ]);
    expect(dup.status).toBe(400);
    expect(dup.body.message).toContain('Vai trò và tổ chức bị trùng');
    const dupGlobal = await grant(u, [
      { roleIds: [w.roles.staff], isGlobal: true },
      { roleIds: [w.roles.staff], organizationIds: [] },
    ]);
    expect(dupGlobal.status).toBe(400);
    expect((await t.request('POST', `/api/users/${u}/roles`, { token: t.adminToken, body: {} })).status).toBe(400);
    expect(await linksOf(u)).toEqual([]);
  });

  it('names unknown roles and organizations, refuses inactive roles, and answers 404 for an unknown user', async () => {
    const u = await insertUser(t, w.c1);
    const role = await grant(u, [{ roleIds: [999999], isGlobal: true }]);
    expect(role.status).toBe(400);
    expect(role.body.message).toBe('Vai trò không tồn tại: 999999');
    const org = await grant(u, [{ roleIds: [w.roles.staff], organizationIds: [888888] }]);
    expect(org.status).toBe(400);
    expect(org.body.message).toBe('Tổ chức không tồn tại: 888888');
    const off = await t.createRole('gr_off', ['dashboard.access']);
    await runQuery(t.db.update(roles).set({ isActive: false }).where(eq(roles.id, off)));
    const inactive = await grant(u, [{ roleIds: [off], isGlobal: true }]);
    expect(inactive.status).toBe(400);
    expect(inactive.body.message).toContain('đang ngừng hoạt động');
    const missing = await grant(999999, []);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Không tìm thấy người dùng');
  });
});

describe('POST /api/roles/grant-roles', () => {
  it('grants like /users/:id/roles, and an empty list clears every role', async () => {
    const u = await insertUser(t, w.c1);
    const res = await t.request('POST', '/api/roles/grant-roles', {
      token: t.adminToken,
      body: { userId: u, roleAssignments: [{ roleIds: [w.roles.staff], organizationIds: [w.f1], isGlobal: false }] },
    });
    expect(res.status).toBe(200);
    expect(await linksOf(u)).toEqual([{ roleId: w.roles.staff, organizationId: w.f1, isActive: true }]);
    const clear = await t.request('POST', '/api/roles/grant-roles', { token: t.adminToken, body: { userId: u, roleAssignments: [] } });
    expect(clear.status).toBe(200);
    expect(clear.body).toMatchObject({ message: 'Đã gỡ toàn bộ vai trò của người dùng', added: 0, removed: 1, userRoles: [] });
    expect(await linksOf(u)).toEqual([]);
  });

  it('requires a user', async () => {
    const res = await t.request('POST', '/api/roles/grant-roles', { token: t.adminToken, body: { roleAssignments: [] } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Vui lòng chọn người dùng');
  });
});

describe('GET /api/users/:id/roles', () => {
  it("lists the user's links, or with organizationId those that apply there", async () => {
    const u = await insertUser(t, w.c1);
    await grant(u, [
      { roleIds: [w.roles.staff], organizationIds: [w.f1, w.f2] },
      { roleIds: [w.roles.member], isGlobal: true },
    ]);
    const all = await t.request('GET', `/api/users/${u}/roles`, { token: t.adminToken });
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(3);
    const inC1 = await t.request('GET', `/api/users/${u}/roles?organizationId=${w.c1}`, { token: t.adminToken });
    expect(inC1.body.map((l: { organizationId: number | null }) => l.organizationId).sort()).toEqual([w.f1, null].sort());
    expect((await t.request('GET', `/api/users/${u}/roles?organizationId=777777`, { token: t.adminToken })).status).toBe(404);
    expect((await t.request('GET', `/api/users/${u}/roles?organizationId=x`, { token: t.adminToken })).status).toBe(400);
    expect((await t.request('GET', '/api/users/999999/roles', { token: t.adminToken })).status).toBe(404);
  });

  it("hides users outside the caller's organizations (404)", async () => {
    const outside = await insertUser(t, w.f2);
    const inside = await insertUser(t, w.c1);
    expect((await t.request('GET', `/api/users/${outside}/roles`, { token: w.orgAdmin.token })).status).toBe(404);
    expect((await t.request('GET', `/api/users/${inside}/roles`, { token: w.orgAdmin.token })).status).toBe(200);
  });
});

describe('POST /api/users/:id/assign-role', () => {
  it('adds one link (201), global without an organization, and refuses the same pair twice (409)', async () => {
    const u = await insertUser(t, w.c1);
    const res = await t.request('POST', `/api/users/${u}/assign-role`, {
      token: t.adminToken,
      body: { roleId: w.roles.staff, organizationId: w.c1 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      roleId: w.roles.staff,
      organizationId: w.c1,
      organization: { id: w.c1, name: 'Chi đoàn GR 1' },
      isActive: true,
    });
    const global = await t.request('POST', `/api/users/${u}/assign-role`, {
      token: t.adminToken,
      body: { roleId: w.roles.staff, organizationId: null },
    });
    expect(global.status).toBe(201);
    expect(global.body.organizationId).toBeNull();
    const again = await t.request('POST', `/api/users/${u}/assign-role`, {
      token: t.adminToken,
      body: { roleId: w.roles.staff, organizationId: w.c1 },
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Người dùng đã có vai trò "Cán bộ" trong tổ chức "Chi đoàn GR 1"');
    expect(await linksOf(u)).toHaveLength(2);
  });

  it('reactivates an inactive copy of the link instead of adding another', async () => {
    const u = await insertUser(t, w.c1);
    await runQuery(t.db.insert(userRoles).values({ userId: u, roleId: w.roles.member, organizationId: null, isActive: false }));
    const res = await t.request('POST', `/api/users/${u}/assign-role`, { token: t.adminToken, body: { roleId: w.roles.member } });
    expect(res.status).toBe(200);
    expect(await linksOf(u)).toEqual([{ roleId: w.roles.member, organizationId: null, isActive: true }]);
  });

  it('validates the body and answers 404 for an unknown user', async () => {
    const u = await insertUser(t, w.c1);
    const noRole = await t.request('POST', `/api/users/${u}/assign-role`, { token: t.adminToken, body: { organizationId: w.f1 } });
    expect(noRole.status).toBe(400);
    expect(noRole.body.message).toContain('Vui lòng chọn vai trò');
    const unknownRole = await t.request('POST', `/api/users/${u}/assign-role`, { token: t.adminToken, body: { roleId: 999999 } });
    expect(unknownRole.status).toBe(400);
    const unknownOrg = await t.request('POST', `/api/users/${u}/assign-role`, {
      token: t.adminToken,
      body: { roleId: w.roles.staff, organizationId: 999999 },
    });
    expect(unknownOrg.status).toBe(400);
    expect(unknownOrg.body.message).toContain('Tổ chức không tồn tại');
    expect(
      (await t.request('POST', '/api/users/999999/assign-role', { token: t.adminToken, body: { roleId: w.roles.staff } })).status,
    ).toBe(404);
  });
});

describe('GET /api/users/available-roles', () => {
  it('gives a super admin every active role, grantable globally', async () => {
    const res = await t.request('GET', '/api/users/available-roles', { token: t.adminToken });
    expect(res.status).toBe(200);
    const names = res.body.map((r: { name: string }) => r.name);
    expect(names).toEqual(expect.arrayContaining(['super_admin', 'org_admin', 'staff', 'member']));
    expect(names).not.toContain('gr_off');
    expect(res.body.every((r: { grantableIn: { global: boolean } }) => r.grantableIn.global)).toBe(true);
  });

  it('gives an organization admin only the roles he fully holds, and where', async () => {
    const res = await t.request('GET', '/api/users/available-roles', { token: w.orgAdmin.token });
    expect(res.status).toBe(200);
    const byName = new Map(res.body.map((r: { name: string }) => [r.name, r]));
    expect([...byName.keys()]).toEqual(expect.arrayContaining(['org_admin', 'staff', 'member']));
    expect(byName.has('super_admin')).toBe(false);
    expect(byName.get('staff')).toMatchObject({ grantableIn: { global: false, organizationIds: [w.f1] } });
  });
});

describe('privilege escalation is refused', () => {
  it('an organization admin cannot grant super_admin, in his organization or globally', async () => {
    const u = await insertUser(t, w.c1);
    const inOrg = await grant(u, [{ roleIds: [w.roles.superAdmin], organizationIds: [w.f1] }], w.orgAdmin.token);
    expect(inOrg.status).toBe(403);
    expect(inOrg.body.message).toContain('Không thể cấp vai trò "Quản trị hệ thống"');
    const global = await grant(u, [{ roleIds: [w.roles.superAdmin], isGlobal: true }], w.orgAdmin.token);
    expect(global.status).toBe(403);
    expect(global.body.message).toBe('Bạn không có quyền cấp vai trò toàn hệ thống');
    const assign = await t.request('POST', `/api/users/${u}/assign-role`, {
      token: w.orgAdmin.token,
      body: { roleId: w.roles.superAdmin, organizationId: w.f1 },
    });
    expect(assign.status).toBe(403);
    expect(await linksOf(u)).toEqual([]);
  });

  it('nor a role carrying a permission he lacks', async () => {
    const weak = await t.createRole('gr_role_manager', ['users.access', 'users.view_details', 'users.roles.manage']);
    const manager = await t.createUser('GRMGR', [{ roleId: weak, organizationId: w.f1 }]);
    const u = await insertUser(t, w.c1);
    const res = await grant(u, [{ roleIds: [w.roles.staff], organizationIds: [w.c1] }], manager.token);
    expect(res.status).toBe(403);
    expect(res.body.message).toContain('vai trò có quyền bạn không có');
    expect(res.body.message).toContain('dashboard.access');
    const ok = await grant(u, [{ roleIds: [weak], organizationIds: [w.c1] }], manager.token);
    expect(ok.status).toBe(200);
  });

  it('grants in his subtree, but not in an organization outside it or above it', async () => {
    const u = await insertUser(t, w.c1);
    expect((await grant(u, [{ roleIds: [w.roles.staff], organizationIds: [w.c1] }], w.orgAdmin.token)).status).toBe(200);
    const outside = await grant(u, [{ roleIds: [w.roles.staff], organizationIds: [w.c1, w.f2] }], w.orgAdmin.token);
    expect(outside.status).toBe(403);
    expect(outside.body.message).toBe('Bạn không có quyền cấp vai trò trong tổ chức "Đoàn khoa GR 2"');
    const above = await grant(u, [{ roleIds: [w.roles.staff], organizationIds: [w.c1, w.root] }], w.orgAdmin.token);
    expect(above.status).toBe(403);
    const chiDoanAdmin = await t.createUser('GRC1', [{ roleId: w.roles.orgAdmin, organizationId: w.c1 }]);
    expect((await grant(u, [{ roleIds: [w.roles.staff], organizationIds: [w.f1] }], chiDoanAdmin.token)).status).toBe(403);
    expect(await linksOf(u)).toEqual([{ roleId: w.roles.staff, organizationId: w.c1, isActive: true }]);
  });

  it('cannot strip a global role (or one outside his subtree), but may keep it while changing his own', async () => {
    const u = await insertUser(t, w.c1);
    await grant(u, [
      { roleIds: [w.roles.member], isGlobal: true },
      { roleIds: [w.roles.staff], organizationIds: [w.f2] },
    ]);
    const strip = await grant(u, [{ roleIds: [w.roles.staff], organizationIds: [w.f2] }], w.orgAdmin.token);
    expect(strip.status).toBe(403);
    expect(strip.body.message).toBe('Bạn không có quyền gỡ vai trò toàn hệ thống');
    const clear = await t.request('POST', '/api/roles/grant-roles', { token: w.orgAdmin.token, body: { userId: u, roleAssignments: [] } });
    expect(clear.status).toBe(403);
    const keep = await grant(
      u,
      [
        { roleIds: [w.roles.member], isGlobal: true },
        { roleIds: [w.roles.staff], organizationIds: [w.f2] },
        { roleIds: [w.roles.staff], organizationIds: [w.c1] },
      ],
      w.orgAdmin.token,
    );
    expect(keep.status).toBe(200);
    expect(keep.body).toMatchObject({ added: 1, removed: 0 });
    expect(await linksOf(u)).toHaveLength(3);
  });

  it('cannot grant to a user outside his organizations (404)', async () => {
    const outsider = await insertUser(t, w.f2);
    expect((await grant(outsider, [{ roleIds: [w.roles.member], organizationIds: [w.c1] }], w.orgAdmin.token)).status).toBe(404);
  });

  it('needs users.roles.manage at all (403) and a token (401)', async () => {
    const u = await insertUser(t, w.c1);
    expect((await grant(u, [], w.noRoles.token)).status).toBe(403);
    expect((await t.request('POST', `/api/users/${u}/roles`, { body: { roleAssignments: [] } })).status).toBe(401);
  });
});
