import { categoryOrder, PERMISSION_CATEGORIES, PERMISSIONS } from '@doanhoi/shared';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { permissionIds } from './defaults';
import { makeTestApp, type TestApp } from '../test/harness';
import { postRole, roleId, uniq } from './fixture';
import { roles, userRoles } from '../db/tables/roles';
import { allRows, firstRow } from '../db/engine';

let t: TestApp;

async function lastAudit(action: string, entityId: number) {
  return (
    await allRows(
      t.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, action), eq(auditLogs.entityId, String(entityId)))),
    )
  ).at(-1);
}

beforeAll(async () => {
  t = await makeTestApp();
});

describe('GET /api/roles', () => {
  it('lists roles with counts, flags and paging fields', async () => {
    const res = await t.request('GET', '/api/roles?limit=100', { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page: 1, limit: 100, totalPages: 1 });
    const sa = res.body.data.find((r: { name: string }) => r.name === 'super_admin');
    expect(sa).toMatchObject({ isSystemRole: true, isActive: true, permissionCount: PERMISSIONS.length, displayName: 'Quản trị hệ thống' });
    expect(sa.assignmentCount).toBeGreaterThanOrEqual(1);
    expect(new Date(sa.createdAt).toString()).not.toBe('Invalid Date');
    expect(sa.searchText).toBeUndefined();
    const member = res.body.data.find((r: { name: string }) => r.name === 'member');
    expect(member).toMatchObject({ isSystemRole: false, permissionCount: 5 });
    expect(res.body.total).toBe(res.body.data.length);
  });

  it('pages with limit and reports totalPages', async () => {
    const all = await t.request('GET', '/api/roles?limit=100', { token: t.adminToken });
    const res = await t.request('GET', '/api/roles?page=2&limit=2', { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data.map((r: { id: number }) => r.id)).toEqual(all.body.data.slice(2, 4).map((r: { id: number }) => r.id));
    expect(res.body.totalPages).toBe(Math.ceil(all.body.total / 2));
  });

  it('searches name and display name ignoring accents and case', async () => {
    const r = await postRole(t, { name: uniq('bi_thu'), displayName: 'Bí thư Chi đoàn' });
    for (const q of ['bi thu', 'BÍ THƯ', 'chi doan', r.name]) {
      const res = await t.request('GET', `/api/roles?search=${encodeURIComponent(q)}`, { token: t.adminToken });
      expect(res.status).toBe(200);
      expect(res.body.data.map((x: { id: number }) => x.id)).toContain(r.id);
    }
    const none = await t.request('GET', '/api/roles?search=khong-co-vai-tro-nay', { token: t.adminToken });
    expect(none.body).toMatchObject({ data: [], total: 0, totalPages: 1 });
  });

  it('filters by status', async () => {
    const r = await postRole(t, { name: uniq('tam_ngung'), displayName: 'Tạm ngưng', isActive: false });
    const inactive = await t.request('GET', '/api/roles?isActive=false&limit=100', { token: t.adminToken });
    expect(inactive.body.data.map((x: { id: number }) => x.id)).toContain(r.id);
    expect(inactive.body.data.every((x: { isActive: boolean }) => !x.isActive)).toBe(true);
    const active = await t.request('GET', '/api/roles?isActive=true&limit=100', { token: t.adminToken });
    expect(active.body.data.map((x: { id: number }) => x.id)).not.toContain(r.id);
  });

  it('rejects bad query values and needs a token', async () => {
    expect((await t.request('GET', '/api/roles?limit=0', { token: t.adminToken })).status).toBe(400);
    expect((await t.request('GET', '/api/roles?isActive=maybe', { token: t.adminToken })).status).toBe(400);
    expect((await t.request('GET', '/api/roles')).status).toBe(401);
  });
});

describe('GET /api/roles/available-permissions', () => {
  it('returns every active permission in the form order: category of 000 §2, then sortOrder', async () => {
    const res = await t.request('GET', '/api/roles/available-permissions', { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(PERMISSIONS.length);
    const categories = [...new Set(res.body.map((p: { category: string }) => p.category))];
    expect(categories).toEqual([...PERMISSION_CATEGORIES]);
    for (let i = 1; i < res.body.length; i++) {
      const [a, b] = [res.body[i - 1], res.body[i]];
      if (a.category === b.category) expect(a.sortOrder).toBeLessThan(b.sortOrder);
    }
    expect(res.body[0]).toMatchObject({ code: 'dashboard.access', context: 'organization', isActive: true });
    expect(res.body.find((p: { code: string }) => p.code === 'permissions.access').context).toBe('system');
  });
});

describe('GET /api/roles/:id', () => {
  it('returns the role with its permissions in form order', async () => {
    const res = await t.request('GET', `/api/roles/${await roleId(t, 'staff')}`, { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'staff', displayName: 'Cán bộ', isSystemRole: false });
    expect(res.body.permissions[0]).toEqual({
      id: expect.any(Number),
      code: 'dashboard.access',
      name: expect.any(String),
      category: 'dashboard',
      context: 'organization',
    });
    expect(res.body.permissionCount).toBe(res.body.permissions.length);
    // Form order: categories in the catalogue's order, then sortOrder (the category list grows with new issues).
    const ranks = res.body.permissions.map((p: { category: string }) => categoryOrder(p.category));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it('answers 404 for an unknown role and 400 for a malformed id', async () => {
    const missing = await t.request('GET', '/api/roles/999999', { token: t.adminToken });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Không tìm thấy vai trò');
    expect((await t.request('GET', '/api/roles/abc', { token: t.adminToken })).status).toBe(400);
  });
});

describe('POST /api/roles', () => {
  it('creates a role with trimmed fields and its permissions, audited', async () => {
    const ids = await permissionIds(t.db, ['users.access', 'users.view_details']);
    const name = uniq('can_bo_lop');
    const res = await t.request('POST', '/api/roles', {
      token: t.adminToken,
      body: { name: ` ${name} `, displayName: '  Cán bộ lớp ', description: '  ', permissionIds: [...ids, ids[0]] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name,
      displayName: 'Cán bộ lớp',
      description: null,
      isActive: true,
      isSystemRole: false,
      permissionCount: 2,
    });
    expect(res.body.permissions.map((p: { code: string }) => p.code)).toEqual(['users.access', 'users.view_details']);
    const log = (await lastAudit('role.create', res.body.id))!;
    expect(JSON.parse(log.after!)).toMatchObject({ name, permissions: ['users.access', 'users.view_details'] });
  });

  it('requires a role code of lower-case letters, digits and underscores', async () => {
    for (const name of ['Can_Bo', 'can bo', 'cán_bộ', 'can-bo']) {
      const res = await t.request('POST', '/api/roles', { token: t.adminToken, body: { name, displayName: 'X' } });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('Mã vai trò chỉ gồm chữ thường');
      expect(res.body.issues[0].path).toBe('name');
    }
    const missing = await t.request('POST', '/api/roles', { token: t.adminToken, body: { displayName: 'X' } });
    expect(missing.body.message).toContain('Vui lòng nhập mã vai trò');
  });

  it('requires a display name and valid permission ids', async () => {
    const noDisplay = await t.request('POST', '/api/roles', { token: t.adminToken, body: { name: uniq('x'), displayName: '  ' } });
    expect(noDisplay.status).toBe(400);
    expect(noDisplay.body.message).toContain('Vui lòng nhập tên hiển thị');
    const badIds = await t.request('POST', '/api/roles', {
      token: t.adminToken,
      body: { name: uniq('x'), displayName: 'X', permissionIds: ['a'] },
    });
    expect(badIds.status).toBe(400);
    const unknown = await t.request('POST', '/api/roles', {
      token: t.adminToken,
      body: { name: uniq('x'), displayName: 'X', permissionIds: [999999] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('Quyền không tồn tại: 999999');
  });

  it('answers 409 naming the code when it is taken', async () => {
    const res = await t.request('POST', '/api/roles', { token: t.adminToken, body: { name: 'staff', displayName: 'Trùng' } });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Mã vai trò "staff" đã tồn tại');
  });
});

describe('PUT /api/roles/:id', () => {
  it('replaces display name, description, permissions and status; audited with before and after', async () => {
    const r = await postRole(t, {
      name: uniq('sua'),
      displayName: 'Trước',
      description: 'Mô tả',
      permissionIds: await permissionIds(t.db, ['users.access']),
    });
    const res = await t.request('PUT', `/api/roles/${r.id}`, {
      token: t.adminToken,
      body: {
        name: r.name,
        displayName: 'Sau',
        permissionIds: await permissionIds(t.db, ['classes.access', 'classes.update']),
        isActive: false,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: r.name, displayName: 'Sau', description: null, isActive: false, permissionCount: 2 });
    expect(res.body.permissions.map((p: { code: string }) => p.code)).toEqual(['classes.access', 'classes.update']);
    const log = (await lastAudit('role.update', r.id))!;
    expect(JSON.parse(log.before!)).toMatchObject({ displayName: 'Trước', permissions: ['users.access'] });
    expect(JSON.parse(log.after!)).toMatchObject({ displayName: 'Sau', isActive: false });
    const search = await t.request('GET', '/api/roles?search=sau', { token: t.adminToken });
    expect(search.body.data.map((x: { id: number }) => x.id)).toContain(r.id);
  });

  it('keeps permissions and status when they are left out', async () => {
    const r = await postRole(t, { name: uniq('giu'), displayName: 'Giữ', permissionIds: await permissionIds(t.db, ['users.access']) });
    const res = await t.request('PUT', `/api/roles/${r.id}`, {
      token: t.adminToken,
      body: { displayName: 'Giữ nguyên', description: 'Mới' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ displayName: 'Giữ nguyên', description: 'Mới', isActive: true, permissionCount: 1 });
  });

  it('refuses to change the code', async () => {
    const r = await postRole(t, { name: uniq('ma'), displayName: 'Mã' });
    const res = await t.request('PUT', `/api/roles/${r.id}`, { token: t.adminToken, body: { name: 'ma_khac', displayName: 'Mã' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Mã vai trò không thể thay đổi');
  });

  it('protects system roles from edits and deactivation', async () => {
    const id = await roleId(t, 'super_admin');
    const edit = await t.request('PUT', `/api/roles/${id}`, { token: t.adminToken, body: { displayName: 'Khác' } });
    expect(edit.status).toBe(409);
    expect(edit.body.message).toBe('Không thể chỉnh sửa vai trò hệ thống');
    const off = await t.request('PUT', `/api/roles/${id}`, {
      token: t.adminToken,
      body: { displayName: 'Quản trị hệ thống', isActive: false },
    });
    expect(off.status).toBe(409);
    expect(off.body.message).toBe('Không thể ngừng kích hoạt vai trò hệ thống');
    expect(await firstRow(t.db.select().from(roles).where(eq(roles.id, id)))).toMatchObject({
      displayName: 'Quản trị hệ thống',
      isActive: true,
    });
  });

  it('answers 404 for an unknown role and 400 without a display name', async () => {
    expect((await t.request('PUT', '/api/roles/999999', { token: t.adminToken, body: { displayName: 'X' } })).status).toBe(404);
    const r = await postRole(t, { name: uniq('thieu'), displayName: 'Thiếu' });
    const res = await t.request('PUT', `/api/roles/${r.id}`, { token: t.adminToken, body: {} });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Vui lòng nhập tên hiển thị');
  });

  it('takes effect at once for holders: deactivating a role removes its permissions', async () => {
    const r = await postRole(t, {
      name: uniq('xem_lop'),
      displayName: 'Xem lớp',
      permissionIds: await permissionIds(t.db, ['classes.access']),
    });
    const u = await t.createUser(uniq('HOLDER'), [{ roleId: r.id }]);
    expect((await t.request('GET', '/api/classes', { token: u.token })).status).toBe(200);
    await t.request('PUT', `/api/roles/${r.id}`, { token: t.adminToken, body: { displayName: 'Xem lớp', isActive: false } });
    expect((await t.request('GET', '/api/classes', { token: u.token })).status).toBe(403);
  });
});

describe('DELETE /api/roles/:id', () => {
  it('deletes the role and its user links, reporting how many', async () => {
    const r = await postRole(t, { name: uniq('xoa'), displayName: 'Xóa', permissionIds: await permissionIds(t.db, ['classes.access']) });
    const u = await t.createUser(uniq('DEL'), [{ roleId: r.id }]);
    expect((await t.request('GET', '/api/classes', { token: u.token })).status).toBe(200);
    const res = await t.request('DELETE', `/api/roles/${r.id}`, { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Đã xóa vai trò "Xóa"', deletedUserRoleAssignments: 1 });
    expect(await allRows(t.db.select().from(userRoles).where(eq(userRoles.roleId, r.id)))).toHaveLength(0);
    expect((await t.request('GET', `/api/roles/${r.id}`, { token: t.adminToken })).status).toBe(404);
    expect((await t.request('GET', '/api/classes', { token: u.token })).status).toBe(403);
    expect(JSON.parse((await lastAudit('role.delete', r.id))!.before!)).toMatchObject({ name: r.name, assignmentCount: 1 });
  });

  it('refuses to delete a system role', async () => {
    const res = await t.request('DELETE', `/api/roles/${await roleId(t, 'super_admin')}`, { token: t.adminToken });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Không thể xóa vai trò hệ thống');
  });

  it('answers 404 for an unknown role', async () => {
    expect((await t.request('DELETE', '/api/roles/999999', { token: t.adminToken })).status).toBe(404);
  });
});

describe('DELETE /api/roles (bulk)', () => {
  it('deletes the roles and counts roles and user links', async () => {
    const a = await postRole(t, { name: uniq('bulk'), displayName: 'A' });
    const b = await postRole(t, { name: uniq('bulk'), displayName: 'B' });
    await t.createUser(uniq('BK'), [{ roleId: a.id }, { roleId: b.id }]);
    await t.createUser(uniq('BK'), [{ roleId: a.id }]);
    const res = await t.request('DELETE', '/api/roles', { token: t.adminToken, body: { ids: [a.id, b.id, 999999] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deletedRoles: 2, deletedUserRoleAssignments: 3 });
  });

  it('deletes nothing when a system role is selected', async () => {
    const a = await postRole(t, { name: uniq('bulk'), displayName: 'Còn lại' });
    const res = await t.request('DELETE', '/api/roles', { token: t.adminToken, body: { ids: [a.id, await roleId(t, 'super_admin')] } });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('Không thể xóa vai trò hệ thống');
    expect(res.body.message).toContain('Quản trị hệ thống');
    expect((await t.request('GET', `/api/roles/${a.id}`, { token: t.adminToken })).status).toBe(200);
  });

  it('requires at least one id', async () => {
    const res = await t.request('DELETE', '/api/roles', { token: t.adminToken, body: { ids: [] } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Vui lòng chọn ít nhất một mục');
  });
});

describe('POST /api/roles/seed-defaults', () => {
  it('recreates missing default roles, completes system roles and leaves edited roles alone', async () => {
    const staff = await roleId(t, 'staff');
    expect((await t.request('DELETE', `/api/roles/${staff}`, { token: t.adminToken })).status).toBe(200);
    const member = await roleId(t, 'member');
    await t.request('PUT', `/api/roles/${member}`, {
      token: t.adminToken,
      body: { displayName: 'Đoàn viên', permissionIds: await permissionIds(t.db, ['dashboard.access']) },
    });
    const res = await t.request('POST', '/api/roles/seed-defaults', { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.created).toEqual(['staff']);
    expect(res.body.updated).toEqual(['super_admin']);
    expect(res.body.message).toContain('Đã tạo 1 vai trò mặc định');
    const found = await t.request('GET', '/api/roles?search=can bo', { token: t.adminToken });
    expect(found.body.data.map((r: { name: string }) => r.name)).toContain('staff');
    const kept = await t.request('GET', `/api/roles/${member}`, { token: t.adminToken });
    expect(kept.body).toMatchObject({ displayName: 'Đoàn viên', permissionCount: 1 });
    expect(await allRows(t.db.select().from(auditLogs).where(eq(auditLogs.action, 'role.seed_defaults')))).toHaveLength(1);
  });
});
