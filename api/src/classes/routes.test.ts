import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { departments } from '../db/tables/departments';
import { makeTestApp, type TestApp } from '../test/harness';
import { users } from '../db/tables/users';
import { firstRow, runQuery } from '../db/engine';

let t: TestApp;
let seq = 0;
const uniq = (p: string) => `${p}${++seq}`;
let deptId: number;

async function createClass(body: Record<string, unknown>) {
  const res = await t.request('POST', '/api/classes', { token: t.adminToken, body });
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string; code: string | null; year: number };
}

/** A student (user) placed in the class. */
async function enrol(classId: number, code = uniq('SV')) {
  const u = await t.createUser(code);
  await runQuery(t.db.update(users).set({ classId }).where(eq(users.id, u.id)));
  return u;
}

beforeAll(async () => {
  t = await makeTestApp();
  deptId = (
    await firstRow(t.db.insert(departments).values({ name: 'Khoa Công nghệ', code: 'CN', searchText: 'khoa cong nghe cn' }).returning())
  ).id;
});

describe('POST /api/classes', () => {
  it('creates a class with its department, active by default', async () => {
    const res = await t.request('POST', '/api/classes', {
      token: t.adminToken,
      body: { name: ' 21CNTT1 ', code: ' C21-1 ', year: 2021, departmentId: deptId },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: '21CNTT1',
      code: 'C21-1',
      year: 2021,
      isActive: true,
      studentCount: 0,
      students: [],
      department: { id: deptId, name: 'Khoa Công nghệ', code: 'CN' },
    });
    expect(res.body.searchText).toBeUndefined();
  });

  it('defaults the year to the current year, and the department and code to none', async () => {
    const c = await createClass({ name: 'Lớp không năm', code: '' });
    expect(c.year).toBe(new Date().getFullYear());
    expect(c.code).toBeNull();
    expect((c as unknown as { department: unknown }).department).toBeNull();
  });

  it('requires a name after trimming', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }]) {
      const res = await t.request('POST', '/api/classes', { token: t.adminToken, body });
      expect(res.status).toBe(400);
      expect(res.body.issues[0]).toEqual({ path: 'name', message: 'Vui lòng nhập tên' });
    }
  });

  it('requires a whole year from 2000 to 2100', async () => {
    for (const year of [1999, 2101, 2024.5, '2024', null]) {
      const res = await t.request('POST', '/api/classes', { token: t.adminToken, body: { name: 'Lớp năm', year } });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('Năm phải từ 2000 đến 2100');
    }
    expect((await t.request('POST', '/api/classes', { token: t.adminToken, body: { name: 'Lớp 2000', year: 2000 } })).status).toBe(201);
    expect((await t.request('POST', '/api/classes', { token: t.adminToken, body: { name: 'Lớp 2100', year: 2100 } })).status).toBe(201);
  });

  it('refuses an unknown department (400) and a malformed one', async () => {
    const res = await t.request('POST', '/api/classes', { token: t.adminToken, body: { name: 'Lớp lạc', departmentId: 999999 } });
    expect(res.status).toBe(400);
    expect(res.body.issues).toEqual([{ path: 'departmentId', message: 'Khoa/phòng ban không hợp lệ' }]);
    expect((await t.request('POST', '/api/classes', { token: t.adminToken, body: { name: 'Lớp lạc', departmentId: 'x' } })).status).toBe(
      400,
    );
  });

  it('refuses a code already used, with a message about the code (409)', async () => {
    const code = uniq('DUP');
    await createClass({ name: 'Lớp A', code });
    const res = await t.request('POST', '/api/classes', { token: t.adminToken, body: { name: 'Lớp B', code } });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('Mã');
  });

  it('answers 401 without a token', async () => {
    expect((await t.request('POST', '/api/classes', { body: { name: 'Lớp' } })).status).toBe(401);
  });
});

describe('GET /api/classes', () => {
  it('filters by search (accent-insensitive, name or code), year, department and active state', async () => {
    const tag = uniq('cq');
    const other = (await firstRow(t.db.insert(departments).values({ name: 'Khoa Kinh tế', searchText: 'khoa kinh te' }).returning())).id;
    await createClass({ name: `Kỹ thuật ${tag} A`, code: `KA-${tag}`, year: 2022, departmentId: deptId });
    await createClass({ name: `Kỹ thuật ${tag} B`, year: 2023, departmentId: other, isActive: false });
    await createClass({ name: `Kế toán ${tag}`, year: 2023, departmentId: other });

    const q = (s: string) => t.request('GET', `/api/classes?search=${tag}${s}`, { token: t.adminToken });
    const all = await q('');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 3, page: 1, limit: 10, totalPages: 1 });
    expect(all.body.classes.map((c: { year: number }) => c.year)).toEqual([2023, 2023, 2022]);
    expect(
      (await t.request('GET', `/api/classes?search=${encodeURIComponent(`ky thuat ${tag}`)}`, { token: t.adminToken })).body.total,
    ).toBe(2);
    expect((await t.request('GET', `/api/classes?search=${encodeURIComponent(`ka-${tag}`)}`, { token: t.adminToken })).body.total).toBe(1);
    expect((await q('&year=2023')).body.total).toBe(2);
    expect((await q(`&departmentId=${other}`)).body.total).toBe(2);
    expect((await q(`&departmentId=${other}&isActive=true`)).body.classes.map((c: { name: string }) => c.name)).toEqual([`Kế toán ${tag}`]);
    expect((await q('&isActive=false')).body.total).toBe(1);
    const paged = await q('&limit=2&page=2');
    expect(paged.body).toMatchObject({ total: 3, totalPages: 2 });
    expect(paged.body.classes).toHaveLength(1);
  });

  it('shows each class’s department and student count', async () => {
    const c = await createClass({ name: 'Lớp đông', code: uniq('DONG'), year: 2024, departmentId: deptId });
    await enrol(c.id);
    await enrol(c.id);
    const res = await t.request('GET', `/api/classes?search=${c.code}`, { token: t.adminToken });
    expect(res.body.classes[0]).toMatchObject({ id: c.id, studentCount: 2, department: { id: deptId, code: 'CN' } });
  });

  it('refuses malformed filters', async () => {
    for (const qs of ['year=abc', 'departmentId=0', 'isActive=yes', 'limit=1001', 'page=-1']) {
      expect((await t.request('GET', `/api/classes?${qs}`, { token: t.adminToken })).status).toBe(400);
    }
  });

  it('answers 401 without a token', async () => {
    expect((await t.request('GET', '/api/classes')).status).toBe(401);
  });
});

describe('GET /api/classes/:id', () => {
  it('returns the class with its students', async () => {
    const c = await createClass({ name: 'Lớp chi tiết', year: 2024 });
    const s = await enrol(c.id, uniq('SVD'));
    const res = await t.request('GET', `/api/classes/${c.id}`, { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.studentCount).toBe(1);
    expect(res.body.students).toEqual([
      {
        id: s.id,
        code: expect.any(String),
        familyName: 'Nguyễn Văn',
        givenName: expect.any(String),
        fullName: expect.stringContaining('Nguyễn Văn '),
        email: s.email,
      },
    ]);
    expect(res.body.students[0].passwordHash).toBeUndefined();
  });

  it('answers 404 for an unknown id and 400 for a bad one', async () => {
    expect((await t.request('GET', '/api/classes/999999', { token: t.adminToken })).status).toBe(404);
    expect((await t.request('GET', '/api/classes/x', { token: t.adminToken })).status).toBe(400);
  });
});

describe('PATCH /api/classes/:id', () => {
  it('updates the given fields, and removes the department with null', async () => {
    const c = await createClass({ name: 'Lớp cũ', code: uniq('OLD'), year: 2020, departmentId: deptId });
    const res = await t.request('PATCH', `/api/classes/${c.id}`, {
      token: t.adminToken,
      body: { name: 'Lớp mới', year: 2021, isActive: false },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Lớp mới', code: c.code, year: 2021, isActive: false, department: { id: deptId } });
    const cleared = await t.request('PATCH', `/api/classes/${c.id}`, { token: t.adminToken, body: { departmentId: null } });
    expect(cleared.body.department).toBeNull();
  });

  it('validates like create', async () => {
    const c = await createClass({ name: 'Lớp kiểm', year: 2024 });
    for (const body of [{ name: '  ' }, { year: 1999 }, { departmentId: 999999 }]) {
      expect((await t.request('PATCH', `/api/classes/${c.id}`, { token: t.adminToken, body })).status).toBe(400);
    }
  });

  it('refuses another class’s code (409)', async () => {
    const a = await createClass({ name: 'Lớp X', code: uniq('XX') });
    const b = await createClass({ name: 'Lớp Y', code: uniq('YY') });
    const res = await t.request('PATCH', `/api/classes/${b.id}`, { token: t.adminToken, body: { code: a.code } });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('Mã');
  });

  it('answers 404 for an unknown id', async () => {
    expect((await t.request('PATCH', '/api/classes/999999', { token: t.adminToken, body: { name: 'Lớp' } })).status).toBe(404);
  });
});

describe('DELETE /api/classes/:id', () => {
  it('deletes an empty class', async () => {
    const c = await createClass({ name: 'Lớp trống' });
    const res = await t.request('DELETE', `/api/classes/${c.id}`, { token: t.adminToken });
    expect(res.status).toBe(200);
    expect((await t.request('GET', `/api/classes/${c.id}`, { token: t.adminToken })).status).toBe(404);
  });

  it('refuses a class with students, with a message mentioning sinh viên (409)', async () => {
    const c = await createClass({ name: 'Lớp có SV' });
    await enrol(c.id);
    const res = await t.request('DELETE', `/api/classes/${c.id}`, { token: t.adminToken });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('sinh viên');
    expect((await t.request('GET', `/api/classes/${c.id}`, { token: t.adminToken })).status).toBe(200);
  });

  it('answers 404 for an unknown id', async () => {
    expect((await t.request('DELETE', '/api/classes/999999', { token: t.adminToken })).status).toBe(404);
  });
});

describe('DELETE /api/classes/bulk', () => {
  it('deletes the listed classes and reports the count', async () => {
    const a = await createClass({ name: 'Lớp bulk A' });
    const b = await createClass({ name: 'Lớp bulk B' });
    const res = await t.request('DELETE', '/api/classes/bulk', { token: t.adminToken, body: { ids: [a.id, b.id, a.id] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deletedCount: 2 });
  });

  it('deletes nothing when one class has students (409 mentioning sinh viên)', async () => {
    const empty = await createClass({ name: 'Lớp rỗng' });
    const full = await createClass({ name: 'Lớp đầy' });
    await enrol(full.id);
    const res = await t.request('DELETE', '/api/classes/bulk', { token: t.adminToken, body: { ids: [empty.id, full.id] } });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('sinh viên');
    expect(res.body.message).toContain('Lớp đầy');
    expect((await t.request('GET', `/api/classes/${empty.id}`, { token: t.adminToken })).status).toBe(200);
    const audit = await t.request('GET', `/api/audit-logs?entity=class&entityId=${empty.id}`, { token: t.adminToken });
    expect(audit.body.data.map((l: { action: string }) => l.action)).toEqual(['class.create']);
  });

  it('requires a non-empty list of ids', async () => {
    expect((await t.request('DELETE', '/api/classes/bulk', { token: t.adminToken, body: { ids: [] } })).status).toBe(400);
  });
});

describe('audit of class writes', () => {
  it('records create, update, delete and bulk_delete with before/after', async () => {
    const c = await createClass({ name: 'Lớp ghi', year: 2022 });
    await t.request('PATCH', `/api/classes/${c.id}`, { token: t.adminToken, body: { year: 2023 } });
    await t.request('DELETE', `/api/classes/${c.id}`, { token: t.adminToken });
    const res = await t.request('GET', `/api/audit-logs?entity=class&entityId=${c.id}`, { token: t.adminToken });
    expect(res.body.data.map((l: { action: string }) => l.action)).toEqual(['class.delete', 'class.update', 'class.create']);
    expect(res.body.data[1].before.year).toBe(2022);
    expect(res.body.data[1].after.year).toBe(2023);
    expect(res.body.data[2].after).toMatchObject({ name: 'Lớp ghi', year: 2022 });

    const b = await createClass({ name: 'Lớp ghi bulk' });
    await t.request('DELETE', '/api/classes/bulk', { token: t.adminToken, body: { ids: [b.id] } });
    const bulk = await t.request('GET', `/api/audit-logs?entity=class&entityId=${b.id}&action=class.bulk_delete`, { token: t.adminToken });
    expect(bulk.body.total).toBe(1);
    expect(bulk.body.data[0].before.name).toBe('Lớp ghi bulk');
  });
});
