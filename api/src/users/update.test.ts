import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { classes } from '../db/tables/classes';
import { departments } from '../db/tables/departments';
import { makeTestApp, type TestApp } from '../test/harness';
import { insertUser, newUserBody } from './fixture';
import { firstRow } from '../db/engine';

// PATCH /users/:id on its own app (routes.test.ts covers the list, create and read routes).
let t: TestApp;
const get = (path: string) => t.request('GET', `/api/users${path}`, { token: t.adminToken });
const post = (body: unknown, headers?: Record<string, string>) => t.request('POST', '/api/users', { token: t.adminToken, body, headers });
const patch = (id: number, body: unknown) => t.request('PATCH', `/api/users/${id}`, { token: t.adminToken, body });

beforeAll(async () => {
  t = await makeTestApp();
});

describe('PATCH /users/:id', () => {
  it('updates the fields given and keeps search in step', async () => {
    const id = await insertUser(t, { familyName: 'Cũ', givenName: 'Tên' });
    const res = await patch(id, {
      familyName: 'Vương Đình',
      givenName: 'Huệ',
      phone: '090 000 1111',
      membershipStatus: 'doan_vien',
      isActive: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      familyName: 'Vương Đình',
      givenName: 'Huệ',
      phone: '0900001111',
      membershipStatus: 'doan_vien',
      isActive: false,
    });
    const found = (await get('?search=vuong%20dinh%20hue')).body.users.map((u: { id: number }) => u.id);
    expect(found).toEqual([id]);
    expect((await get('?search=cu%20ten')).body.users.map((u: { id: number }) => u.id)).not.toContain(id);
    const log = (await firstRow(
      t.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'user.update'), eq(auditLogs.entityId, String(id)))),
    ))!;
    expect(JSON.parse(log.before!).familyName).toBe('Cũ');
    expect(JSON.parse(log.after!).familyName).toBe('Vương Đình');
  });

  it('sets and clears class and departments', async () => {
    const dept = (await firstRow(t.db.insert(departments).values({ name: 'Khoa Sinh', code: 'SINH' }).returning())).id;
    const cls = (await firstRow(t.db.insert(classes).values({ name: 'Sinh K46', year: 2024 }).returning())).id;
    const id = await insertUser(t);
    const set = await patch(id, { classId: cls, trainingDepartmentId: dept });
    expect(set.body).toMatchObject({
      class: { id: cls, name: 'Sinh K46' },
      trainingDepartment: { id: dept, name: 'Khoa Sinh' },
      managementDepartment: null,
    });
    const cleared = await patch(id, { classId: null });
    expect(cleared.body).toMatchObject({ class: null, trainingDepartment: { id: dept } });
    expect((await patch(id, { classId: 999999 })).status).toBe(400);
  });

  it('a new password replaces the hash and lifts must-change-password', async () => {
    const created = await post(newUserBody({ email: 'doimatkhau@example.vn' }));
    expect(created.body.mustChangePassword).toBe(true);
    const res = await patch(created.body.id, { password: 'moi123456' });
    expect(res.status).toBe(200);
    expect(res.body.mustChangePassword).toBe(false);
    expect((await t.request('POST', '/api/auth/login', { body: { email: 'doimatkhau@example.vn', password: 'moi123456' } })).status).toBe(
      200,
    );
    expect((await t.request('POST', '/api/auth/login', { body: { email: 'doimatkhau@example.vn', password: 'doimatkhau' } })).status).toBe(
      401,
    );
    // An empty password is dropped: nothing changes.
    expect((await patch(created.body.id, { password: '' })).status).toBe(200);
    expect((await t.request('POST', '/api/auth/login', { body: { email: 'doimatkhau@example.vn', password: 'moi123456' } })).status).toBe(
      200,
    );
  });

  it('409 when the code or e-mail belongs to someone else; its own are fine', async () => {
    const a = await post(newUserBody());
    const b = await post(newUserBody());
    expect((await patch(b.body.id, { code: a.body.code })).body.message).toBe(`Mã "${a.body.code}" đã tồn tại`);
    expect((await patch(b.body.id, { email: a.body.email })).status).toBe(409);
    expect((await patch(b.body.id, { code: b.body.code, email: b.body.email.toUpperCase() })).status).toBe(200);
  });

  it('409 when deactivating your own account (you would lock yourself out)', async () => {
    const res = await patch(t.admin.user.id, { isActive: false });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('chính bạn');
    expect((await patch(t.admin.user.id, { isActive: true, givenName: 'Hệ thống' })).status).toBe(200);
  });

  it('400 for invalid fields, 404 for an unknown user', async () => {
    const id = await insertUser(t);
    expect((await patch(id, { phone: '12' })).status).toBe(400);
    expect((await patch(id, { email: 'x' })).status).toBe(400);
    expect((await patch(id, { familyName: '  ' })).status).toBe(400);
    expect((await patch(999999, { givenName: 'Ai' })).status).toBe(404);
  });
});
