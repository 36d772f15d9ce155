import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { classes } from '../db/tables/classes';
import { makeTestApp, type TestApp } from '../test/harness';
import { users } from '../db/tables/users';
import { firstRow, runQuery } from '../db/engine';

let t: TestApp;
let seq = 0;
const uniq = (p: string) => `${p}${++seq}`;

async function createDept(body: Record<string, unknown>) {
  const res = await t.request('POST', '/api/departments', { token: t.adminToken, body });
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string; code: string | null };
}

beforeAll(async () => {
  t = await makeTestApp();
});

describe('POST /api/departments', () => {
  it('creates a department with trimmed fields, active by default', async () => {
    const res = await t.request('POST', '/api/departments', {
      token: t.adminToken,
      body: { name: '  Khoa Công nghệ thông tin ', code: ' CNTT ', description: 'Khoa lớn' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Khoa Công nghệ thông tin',
      code: 'CNTT',
      description: 'Khoa lớn',
      isActive: true,
      managementUsers: 0,
      trainingUsers: 0,
    });
    expect(typeof res.body.id).toBe('number');
    expect(new Date(res.body.createdAt).toString()).not.toBe('Invalid Date');
    expect(res.body.searchText).toBeUndefined();
  });

  it('stores an empty or blank code as no code, and allows several departments without code', async () => {
    const a = await createDept({ name: 'Phòng Đào tạo', code: '' });
    const b = await createDept({ name: 'Phòng Công tác sinh viên', code: '   ' });
    expect(a.code).toBeNull();
    expect(b.code).toBeNull();
  });

  it('requires a name of at least 2 characters after trimming', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }]) {
      const res = await t.request('POST', '/api/departments', { token: t.adminToken, body });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('Vui lòng nhập tên');
    }
    const short = await t.request('POST', '/api/departments', { token: t.adminToken, body: { name: ' A ' } });
    expect(short.status).toBe(400);
    expect(short.body.message).toContain('ít nhất 2 ký tự');
    expect(short.body.issues[0].path).toBe('name');
  });

  it('requires an entered code to have at least 2 characters after trimming', async () => {
    const res = await t.request('POST', '/api/departments', { token: t.adminToken, body: { name: 'Khoa Luật', code: ' L ' } });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ path: 'code', message: 'Mã phải có ít nhất 2 ký tự' }]);
  });

  it('translates validation messages for English callers', async () => {
    const res = await t.request('POST', '/api/departments', {
      token: t.adminToken,
      body: { name: 'X' },
      headers: { 'accept-language': 'en' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Name must be at least 2 characters');
  });

  it('rejects a wrongly typed isActive', async () => {
    const res = await t.request('POST', '/api/departments', { token: t.adminToken, body: { name: 'Khoa Y', isActive: 'yes' } });
    expect(res.status).toBe(400);
  });

  it('refuses a code already used, with a message about the code (409)', async () => {
    const code = uniq('DUP');
    await createDept({ name: 'Khoa A', code });
    const res = await t.request('POST', '/api/departments', { token: t.adminToken, body: { name: 'Khoa B', code } });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('Mã');
  });

  it('parallel creates with one code: one is created, the others answer 409, none 500 (the race past the pre-check)', async () => {
    const code = uniq('RACE');
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.request('POST', '/api/departments', { token: t.adminToken, body: { name: `Khoa Đua ${i}`, code } }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
  });

  it('answers 401 without a token', async () => {
    const res = await t.request('POST', '/api/departments', { body: { name: 'Khoa Z' } });
    expect(res.status).toBe(401);
  });
});

describe('GET /api/departments', () => {
  it('lists with pagination, diacritics-insensitive search on name and code, and an active filter', async () => {
    const tag = uniq('zq');
    await createDept({ name: `Khoa Kinh tế ${tag}`, code: `KT-${tag}` });
    await createDept({ name: `Khoa Điện ${tag}`, code: `DIEN-${tag}`, isActive: false });
    await createDept({ name: `Khoa Cơ khí ${tag}`, code: `CK-${tag}` });

    const all = await t.request('GET', `/api/departments?search=${tag}&limit=2`, { token: t.adminToken });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 3, page: 1, limit: 2, totalPages: 2 });
    expect(all.body.departments).toHaveLength(2);
    const page2 = await t.request('GET', `/api/departments?search=${tag}&limit=2&page=2`, { token: t.adminToken });
    expect(page2.body.departments).toHaveLength(1);
    const names = [...all.body.departments, ...page2.body.departments].map((d: { name: string }) => d.name);
    expect(new Set(names).size).toBe(3);

    const accentless = await t.request('GET', `/api/departments?search=${encodeURIComponent(`khoa dien ${tag}`)}`, { token: t.adminToken });
    expect(accentless.body.departments.map((d: { name: string }) => d.name)).toEqual([`Khoa Điện ${tag}`]);
    const byCode = await t.request('GET', `/api/departments?search=${encodeURIComponent(`ck-${tag}`)}`, { token: t.adminToken });
    expect(byCode.body.total).toBe(1);

    const inactive = await t.request('GET', `/api/departments?search=${tag}&isActive=false`, { token: t.adminToken });
    expect(inactive.body.departments.map((d: { isActive: boolean }) => d.isActive)).toEqual([false]);
    const active = await t.request('GET', `/api/departments?search=${tag}&isActive=true`, { token: t.adminToken });
    expect(active.body.total).toBe(2);
  });

  it('matches LIKE wildcards literally', async () => {
    const res = await t.request('GET', '/api/departments?search=%25', { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(0);
  });

  it('counts management and training users per department', async () => {
    const d = await createDept({ name: 'Khoa Toán', code: uniq('TOAN') });
    const u1 = await t.createUser(uniq('SV'));
    const u2 = await t.createUser(uniq('SV'));
    await runQuery(t.db.update(users).set({ managementDepartmentId: d.id, trainingDepartmentId: d.id }).where(eq(users.id, u1.id)));
    await runQuery(t.db.update(users).set({ trainingDepartmentId: d.id }).where(eq(users.id, u2.id)));
    const list = await t.request('GET', `/api/departments?search=${d.code}`, { token: t.adminToken });
    expect(list.body.departments[0]).toMatchObject({ id: d.id, managementUsers: 1, trainingUsers: 2 });
    const one = await t.request('GET', `/api/departments/${d.id}`, { token: t.adminToken });
    expect(one.body).toMatchObject({ managementUsers: 1, trainingUsers: 2 });
  });

  it('allows limit up to 1000 for dropdowns and refuses more, or a bad page', async () => {
    expect((await t.request('GET', '/api/departments?limit=1000', { token: t.adminToken })).status).toBe(200);
    expect((await t.request('GET', '/api/departments?limit=1001', { token: t.adminToken })).status).toBe(400);
    expect((await t.request('GET', '/api/departments?page=0', { token: t.adminToken })).status).toBe(400);
    expect((await t.request('GET', '/api/departments?isActive=maybe', { token: t.adminToken })).status).toBe(400);
  });

  it('shows a new department in the total at once (totals cache invalidated on write)', async () => {
    const before = (await t.request('GET', '/api/departments', { token: t.adminToken })).body.total;
    await createDept({ name: 'Khoa Mới' });
    const after = (await t.request('GET', '/api/departments', { token: t.adminToken })).body.total;
    expect(after).toBe(before + 1);
  });

  it('answers 401 without a token', async () => {
    expect((await t.request('GET', '/api/departments')).status).toBe(401);
  });
});

describe('GET /api/departments/:id', () => {
  it('returns one department, 404 for an unknown id and 400 for a bad id', async () => {
    const d = await createDept({ name: 'Khoa Hóa', code: uniq('HOA') });
    const res = await t.request('GET', `/api/departments/${d.id}`, { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: d.id, name: 'Khoa Hóa' });
    const missing = await t.request('GET', '/api/departments/999999', { token: t.adminToken });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBeTruthy();
    expect((await t.request('GET', '/api/departments/abc', { token: t.adminToken })).status).toBe(400);
  });
});

describe('PATCH /api/departments/:id', () => {
  it('updates given fields only, clears code with an empty string, and refreshes search', async () => {
    const d = await createDept({ name: 'Khoa Sinh', code: uniq('SINH'), description: 'Mô tả' });
    const res = await t.request('PATCH', `/api/departments/${d.id}`, {
      token: t.adminToken,
      body: { name: ' Khoa Sinh học ', isActive: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Khoa Sinh học', code: d.code, description: 'Mô tả', isActive: false });
    const cleared = await t.request('PATCH', `/api/departments/${d.id}`, { token: t.adminToken, body: { code: '' } });
    expect(cleared.body.code).toBeNull();
    const found = await t.request('GET', '/api/departments?search=sinh%20hoc', { token: t.adminToken });
    expect(found.body.departments.map((x: { id: number }) => x.id)).toContain(d.id);
  });

  it('validates like create', async () => {
    const d = await createDept({ name: 'Khoa Lý' });
    expect((await t.request('PATCH', `/api/departments/${d.id}`, { token: t.adminToken, body: { name: ' ' } })).status).toBe(400);
    expect((await t.request('PATCH', `/api/departments/${d.id}`, { token: t.adminToken, body: { name: 'L' } })).status).toBe(400);
    expect((await t.request('PATCH', `/api/departments/${d.id}`, { token: t.adminToken, body: { code: 'X' } })).status).toBe(400);
  });

  it('refuses another department’s code (409) but keeps its own', async () => {
    const a = await createDept({ name: 'Khoa A1', code: uniq('AA') });
    const b = await createDept({ name: 'Khoa B1', code: uniq('BB') });
    const clash = await t.request('PATCH', `/api/departments/${b.id}`, { token: t.adminToken, body: { code: a.code } });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toContain('Mã');
    const same = await t.request('PATCH', `/api/departments/${b.id}`, { token: t.adminToken, body: { code: b.code } });
    expect(same.status).toBe(200);
  });

  it('answers 404 for an unknown id', async () => {
    expect((await t.request('PATCH', '/api/departments/999999', { token: t.adminToken, body: { name: 'Khoa X' } })).status).toBe(404);
  });
});

describe('DELETE /api/departments/:id', () => {
  it('deletes a department; its users stay, without that department', async () => {
    const d = await createDept({ name: 'Khoa Xóa', code: uniq('DEL') });
    const u = await t.createUser(uniq('SV'));
    await runQuery(t.db.update(users).set({ managementDepartmentId: d.id }).where(eq(users.id, u.id)));
    const res = await t.request('DELETE', `/api/departments/${d.id}`, { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.message).toBeTruthy();
    expect((await t.request('GET', `/api/departments/${d.id}`, { token: t.adminToken })).status).toBe(404);
    const row = await firstRow(t.db.select().from(users).where(eq(users.id, u.id)));
    expect(row?.managementDepartmentId).toBeNull();
  });

  it('refuses while classes belong to it, with a message mentioning lớp (409)', async () => {
    const d = await createDept({ name: 'Khoa Có Lớp', code: uniq('HASCLS') });
    await runQuery(t.db.insert(classes).values({ name: 'Lớp 1', year: 2024, departmentId: d.id }));
    const res = await t.request('DELETE', `/api/departments/${d.id}`, { token: t.adminToken });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('lớp');
    expect((await t.request('GET', `/api/departments/${d.id}`, { token: t.adminToken })).status).toBe(200);
  });

  it('says how many classes hold it, in the list and the detail, so the admin disables Xóa (issue 25 item 6)', async () => {
    const d = await createDept({ name: 'Khoa Đếm Lớp', code: uniq('CNTCLS') });
    expect((await t.request('GET', `/api/departments/${d.id}`, { token: t.adminToken })).body.classCount).toBe(0);
    await runQuery(
      t.db.insert(classes).values([
        { name: 'Lớp A', year: 2024, departmentId: d.id },
        { name: 'Lớp B', year: 2025, departmentId: d.id },
      ]),
    );
    const list = await t.request('GET', `/api/departments?search=${d.code}`, { token: t.adminToken });
    expect(list.body.departments[0]).toMatchObject({ id: d.id, classCount: 2 });
    expect((await t.request('GET', `/api/departments/${d.id}`, { token: t.adminToken })).body.classCount).toBe(2);
  });

  it('answers 404 for an unknown id', async () => {
    expect((await t.request('DELETE', '/api/departments/999999', { token: t.adminToken })).status).toBe(404);
  });
});

describe('DELETE /api/departments/bulk', () => {
  it('deletes the listed departments and reports the count (unknown ids ignored)', async () => {
    const a = await createDept({ name: 'Khoa Bulk A' });
    const b = await createDept({ name: 'Khoa Bulk B' });
    const res = await t.request('DELETE', '/api/departments/bulk', { token: t.adminToken, body: { ids: [a.id, b.id, 999999] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deletedCount: 2 });
    expect((await t.request('GET', `/api/departments/${a.id}`, { token: t.adminToken })).status).toBe(404);
  });

  it('deletes nothing when one of them has classes (409 mentioning lớp)', async () => {
    const free = await createDept({ name: 'Khoa Tự do' });
    const used = await createDept({ name: 'Khoa Bận' });
    await runQuery(t.db.insert(classes).values({ name: 'Lớp Bận', year: 2024, departmentId: used.id }));
    const res = await t.request('DELETE', '/api/departments/bulk', { token: t.adminToken, body: { ids: [free.id, used.id] } });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('lớp');
    expect(res.body.message).toContain('Khoa Bận');
    expect((await t.request('GET', `/api/departments/${free.id}`, { token: t.adminToken })).status).toBe(200);
  });

  it('requires a non-empty list of ids', async () => {
    for (const body of [{}, { ids: [] }, { ids: ['a'] }]) {
      expect((await t.request('DELETE', '/api/departments/bulk', { token: t.adminToken, body })).status).toBe(400);
    }
  });
});

describe('audit of department writes', () => {
  it('records create, update and delete with before/after and the actor', async () => {
    const code = uniq('AUD');
    const d = await createDept({ name: 'Khoa Ghi', code });
    await t.request('PATCH', `/api/departments/${d.id}`, { token: t.adminToken, body: { name: 'Khoa Ghi Sửa' } });
    await t.request('DELETE', `/api/departments/${d.id}`, { token: t.adminToken });
    const res = await t.request('GET', `/api/audit-logs?entity=department&entityId=${d.id}`, { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.data.map((l: { action: string }) => l.action)).toEqual(['department.delete', 'department.update', 'department.create']);
    const [del, upd, crt] = res.body.data;
    expect(crt.after).toMatchObject({ id: d.id, name: 'Khoa Ghi', code });
    expect(crt.before).toBeNull();
    expect(upd.before.name).toBe('Khoa Ghi');
    expect(upd.after.name).toBe('Khoa Ghi Sửa');
    expect(del.before).toMatchObject({ name: 'Khoa Ghi Sửa', managementUsers: 0 });
    expect(del.after).toBeNull();
    expect(crt.actor.email).toBe('admin@doanhoi.local');
  });

  it('records one bulk_delete row per deleted department', async () => {
    const a = await createDept({ name: 'Khoa BA' });
    const b = await createDept({ name: 'Khoa BB' });
    await t.request('DELETE', '/api/departments/bulk', { token: t.adminToken, body: { ids: [a.id, b.id] } });
    const res = await t.request('GET', '/api/audit-logs?action=department.bulk_delete', { token: t.adminToken });
    const ids = res.body.data.map((l: { entityId: string }) => l.entityId);
    expect(ids).toEqual(expect.arrayContaining([String(a.id), String(b.id)]));
  });

  it('writes no audit row when the change is refused', async () => {
    const d = await createDept({ name: 'Khoa Từ chối' });
    await runQuery(t.db.insert(classes).values({ name: 'Lớp Giữ', year: 2024, departmentId: d.id }));
    await t.request('DELETE', `/api/departments/${d.id}`, { token: t.adminToken });
    const res = await t.request('GET', `/api/audit-logs?entity=department&entityId=${d.id}`, { token: t.adminToken });
    expect(res.body.data.map((l: { action: string }) => l.action)).toEqual(['department.create']);
  });
});
