import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { classes } from '../db/tables/classes';
import { departments } from '../db/tables/departments';
import { makeTestApp, type TestApp } from '../test/harness';
import { addMember, insertUser, newUserBody } from './fixture';
import { users } from '../db/tables/users';
import { firstRow, runQuery } from '../db/engine';

let t: TestApp;
const get = (path: string) => t.request('GET', `/api/users${path}`, { token: t.adminToken });
const post = (body: unknown, headers?: Record<string, string>) => t.request('POST', '/api/users', { token: t.adminToken, body, headers });

beforeAll(async () => {
  t = await makeTestApp();
});

describe('GET /users', () => {
  it('lists newest first with class and departments, never the hash or search column', async () => {
    const dept = (await firstRow(t.db.insert(departments).values({ name: 'Khoa CNTT', code: 'CNTT' }).returning())).id;
    const cls = (await firstRow(t.db.insert(classes).values({ name: 'CNTT K45', year: 2024, departmentId: dept }).returning())).id;
    const older = await insertUser(t, { familyName: 'Đỗ', givenName: 'Cũ' });
    const newer = await insertUser(t, {
      familyName: 'Đỗ',
      givenName: 'Mới',
      classId: cls,
      managementDepartmentId: dept,
      trainingDepartmentId: dept,
    });
    const res = await get('?limit=2');
    expect(res.status).toBe(200);
    expect(res.body.users.map((u: { id: number }) => u.id)).toEqual([newer, older]);
    const u = res.body.users[0];
    expect(u).toMatchObject({
      givenName: 'Mới',
      class: { id: cls, name: 'CNTT K45' },
      managementDepartment: { id: dept, name: 'Khoa CNTT' },
      trainingDepartment: { id: dept, name: 'Khoa CNTT' },
      userType: 'student',
      membershipStatus: 'none',
      isActive: true,
      mustChangePassword: false,
    });
    expect(res.body.users[1]).toMatchObject({ class: null, managementDepartment: null, trainingDepartment: null });
    expect(u.passwordHash).toBeUndefined();
    expect(u.searchText).toBeUndefined();
    expect(new Date(u.createdAt).toISOString()).toBe(u.createdAt);
    expect(res.body).toMatchObject({ page: 1, limit: 2 });
    expect(res.body.totalPages).toBe(Math.ceil(res.body.total / 2));
  });

  it('searches name, code, e-mail and phone ignoring accents, case and word order', async () => {
    const a = await insertUser(t, {
      familyName: 'Nguyễn Văn',
      givenName: 'Quyết',
      code: 'QX001',
      email: 'quyet.nv@hcmus.edu.vn',
      phone: '0355512345',
    });
    const b = await insertUser(t, {
      familyName: 'Nguyễn Thị',
      givenName: 'Quyên',
      code: 'QX002',
      email: 'quyen@hcmus.edu.vn',
      phone: '0355567890',
    });
    const ids = async (q: string) => (await get(`?search=${encodeURIComponent(q)}`)).body.users.map((u: { id: number }) => u.id);
    expect(await ids('nguyen van quyet')).toEqual([a]);
    expect(await ids('NGUYỄN quyet')).toEqual([a]);
    expect(await ids('quy nguyen')).toEqual([b, a]);
    expect(await ids('qx002')).toEqual([b]);
    expect(await ids('quyet.nv@hcmus')).toEqual([a]);
    expect(await ids('0355567890')).toEqual([b]);
    expect(await ids('quyết trần')).toEqual([]);
    // LIKE wildcards are matched literally.
    expect(await ids('%')).toEqual([]);
    const res = await get('?search=nguyen%20van%20quyet');
    expect(res.body.total).toBe(1);
  });

  it('filters by type, membership and active status', async () => {
    const staff = await insertUser(t, { familyName: 'Lọcthử', givenName: 'Staff', userType: 'staff', membershipStatus: 'both' });
    const inactive = await insertUser(t, { familyName: 'Lọcthử', givenName: 'Inactive', membershipStatus: 'doan_vien', isActive: false });
    const student = await insertUser(t, { familyName: 'Lọcthử', givenName: 'Student', membershipStatus: 'hoi_vien' });
    const ids = async (q: string) => (await get(`?search=locthu&${q}`)).body.users.map((u: { id: number }) => u.id);
    expect(await ids('userType=staff')).toEqual([staff]);
    expect(await ids('userType=student')).toEqual([student, inactive]);
    expect(await ids('membershipStatus=both')).toEqual([staff]);
    expect(await ids('membershipStatus=doan_vien')).toEqual([inactive]);
    expect(await ids('isActive=false')).toEqual([inactive]);
    expect(await ids('isActive=true&membershipStatus=hoi_vien')).toEqual([student]);
  });

  it('filters by organization: active members of it and of every organization beneath it', async () => {
    const root = await t.createOrg('doan_truong', 'L-ROOT');
    const faculty = await t.createOrg('doan_co_so', 'L-F1', root);
    const chiDoan = await t.createOrg('chi_doan', 'L-C1', faculty);
    const other = await t.createOrg('doan_co_so', 'L-F2', root);
    const inFaculty = await insertUser(t, {}, faculty);
    const inChiDoan = await insertUser(t, {}, chiDoan);
    const inOther = await insertUser(t, {}, other);
    const former = await insertUser(t);
    await addMember(t, former, chiDoan, false);
    const ids = async (org: number) => (await get(`?organizationId=${org}`)).body.users.map((u: { id: number }) => u.id);
    expect(await ids(faculty)).toEqual([inChiDoan, inFaculty]);
    expect(await ids(chiDoan)).toEqual([inChiDoan]);
    expect(await ids(root)).toEqual([inOther, inChiDoan, inFaculty]);
    expect((await get(`?organizationId=${faculty}`)).body.total).toBe(2);
    expect((await get('?organizationId=999999')).body).toMatchObject({ users: [], total: 0 });
  });

  it('paginates in pages of `limit`, with limit up to 1000', async () => {
    for (let i = 0; i < 5; i++) await insertUser(t, { familyName: 'Trang', givenName: `P${i}` });
    const all = (await get('?search=trang&limit=1000')).body;
    expect(all.total).toBe(5);
    const page2 = (await get('?search=trang&limit=2&page=2')).body;
    expect(page2).toMatchObject({ total: 5, page: 2, limit: 2, totalPages: 3 });
    expect(page2.users.map((u: { id: number }) => u.id)).toEqual(all.users.slice(2, 4).map((u: { id: number }) => u.id));
    expect((await get('?search=trang&limit=2&page=9')).body.users).toEqual([]);
    expect((await get('?limit=1001')).status).toBe(400);
    expect((await get('?limit=0')).status).toBe(400);
    expect((await get('?page=abc')).status).toBe(400);
    expect((await get('?userType=teacher')).status).toBe(400);
  });

  it('keeps the total current after creating and deleting through the API', async () => {
    const before = (await get('?search=totalcheck')).body.total;
    const created = await post(newUserBody({ familyName: 'Totalcheck' }));
    expect((await get('?search=totalcheck')).body.total).toBe(before + 1);
    await t.request('DELETE', `/api/users/${created.body.id}`, { token: t.adminToken });
    expect((await get('?search=totalcheck')).body.total).toBe(before);
  });

  it('shows a class renamed on another screen, and rows written behind the API, on the very next list', async () => {
    const cls = (await firstRow(t.db.insert(classes).values({ name: 'Lớp Cũ K46', year: 2024 }).returning())).id;
    const id = await insertUser(t, { familyName: 'Renamecheck', givenName: 'A', classId: cls });
    const className = async () => (await get('?search=renamecheck')).body.users[0].class.name;
    expect(await className()).toBe('Lớp Cũ K46');
    const renamed = await t.request('PATCH', `/api/classes/${cls}`, { token: t.adminToken, body: { name: 'Lớp Mới K46' } });
    expect(renamed.status).toBe(200);
    expect(await className()).toBe('Lớp Mới K46');
    // No module's cache-dropping call: the list must notice the write by itself.
    await runQuery(t.db.update(users).set({ givenName: 'B' }).where(eq(users.id, id)));
    expect((await get('?search=renamecheck')).body.users[0].givenName).toBe('B');
  });

  it('401 without a token', async () => {
    expect((await t.request('GET', '/api/users')).status).toBe(401);
  });
});

describe('POST /users', () => {
  it('creates with the defaults: student, no membership, must change password when none given', async () => {
    const res = await post(newUserBody({ code: ' SVNEW01 ', email: ' NgocAnh2001@Example.EDU.vn ', phone: '0912 345 678', password: '' }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      code: 'SVNEW01',
      email: 'ngocanh2001@example.edu.vn',
      phone: '0912345678',
      userType: 'student',
      membershipStatus: 'none',
      isActive: true,
      mustChangePassword: true,
      organizations: [],
      userRoles: [],
    });
    expect(res.body.passwordHash).toBeUndefined();
    const row = (await firstRow(t.db.select().from(users).where(eq(users.id, res.body.id))))!;
    expect(row.passwordHash).toBeNull();
    // Without a password the account accepts the e-mail's local part (docs/decisions.md).
    const login = await t.request('POST', '/api/auth/login', { body: { email: 'ngocanh2001@example.edu.vn', password: 'ngocanh2001' } });
    expect(login.status).toBe(200);
    expect(login.body.user.mustChangePassword).toBe(true);
  });

  it('hashes a given password and does not ask to change it', async () => {
    const body = newUserBody({ password: 'matkhau123', userType: 'staff', membershipStatus: 'both' });
    const res = await post(body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ userType: 'staff', membershipStatus: 'both', mustChangePassword: false });
    const row = (await firstRow(t.db.select().from(users).where(eq(users.id, res.body.id))))!;
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect((await t.request('POST', '/api/auth/login', { body: { email: body.email, password: 'matkhau123' } })).status).toBe(200);
  });

  it('joins the given organization and all its parents as member, in one go', async () => {
    const root = await t.createOrg('doan_truong', 'P-ROOT');
    const faculty = await t.createOrg('doan_co_so', 'P-F1', root);
    const chiDoan = await t.createOrg('chi_doan', 'P-C1', faculty);
    const res = await post(newUserBody({ organizationId: chiDoan }));
    expect(res.status).toBe(201);
    const orgs = res.body.organizations.map((m: { organizationId: number; role: string; isActive: boolean }) => [
      m.organizationId,
      m.role,
      m.isActive,
    ]);
    expect(orgs).toEqual([
      [root, 'member', true],
      [faculty, 'member', true],
      [chiDoan, 'member', true],
    ]);
    expect(res.body.organizations[2].organization).toMatchObject({ id: chiDoan, code: 'P-C1', parentId: faculty, type: 'chi_doan' });
    // An empty organizationId is dropped.
    const none = await post(newUserBody({ organizationId: '' }));
    expect(none.status).toBe(201);
    expect(none.body.organizations).toEqual([]);
  });

  it('writes an audit row without the password hash', async () => {
    const res = await post(newUserBody({ password: 'matkhau123' }));
    const log = (await firstRow(
      t.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'user.create'), eq(auditLogs.entityId, String(res.body.id)))),
    ))!;
    expect(JSON.parse(log.after!)).toMatchObject({ id: res.body.id, code: res.body.code, email: res.body.email });
    expect(log.after).not.toContain('argon2');
    expect(log.actorId).toBe(t.admin.user.id);
  });

  const invalid: [string, Record<string, unknown>, string, string][] = [
    ['code missing', { code: undefined }, 'code', 'Vui lòng nhập mã'],
    ['code blank', { code: '   ' }, 'code', 'Vui lòng nhập mã'],
    ['family name missing', { familyName: '' }, 'familyName', 'Vui lòng nhập họ'],
    ['given name missing', { givenName: ' ' }, 'givenName', 'Vui lòng nhập tên'],
    ['email missing', { email: '' }, 'email', 'Vui lòng nhập email'],
    ['email without domain dot', { email: 'an@localhost' }, 'email', 'Email không hợp lệ'],
    ['email with a space', { email: 'an b@x.vn' }, 'email', 'Email không hợp lệ'],
    ['email with two @', { email: 'a@b@x.vn' }, 'email', 'Email không hợp lệ'],
    ['phone missing', { phone: undefined }, 'phone', 'Vui lòng nhập số điện thoại'],
    ['phone too short', { phone: '091234567' }, 'phone', 'Số điện thoại phải có 10 hoặc 11 chữ số'],
    ['phone too long', { phone: '091234567890' }, 'phone', 'Số điện thoại phải có 10 hoặc 11 chữ số'],
    ['phone with letters', { phone: '09123a5678' }, 'phone', 'Số điện thoại phải có 10 hoặc 11 chữ số'],
    ['password too short', { password: '12345' }, 'password', 'Mật khẩu phải có ít nhất 6 ký tự'],
    ['unknown user type', { userType: 'teacher' }, 'userType', 'Giá trị không hợp lệ'],
    ['unknown membership', { membershipStatus: 'vip' }, 'membershipStatus', 'Giá trị không hợp lệ'],
    ['organization not a number', { organizationId: 'abc' }, 'organizationId', 'Tổ chức không hợp lệ'],
    ['unknown organization', { organizationId: 999999 }, 'organizationId', 'Tổ chức không hợp lệ'],
    ['unknown class', { classId: 999999 }, 'classId', 'Lớp không hợp lệ'],
    ['unknown management department', { managementDepartmentId: 999999 }, 'managementDepartmentId', 'Khoa/phòng ban không hợp lệ'],
    ['unknown training department', { trainingDepartmentId: 999999 }, 'trainingDepartmentId', 'Khoa/phòng ban không hợp lệ'],
  ];
  for (const [name, over, path, message] of invalid) {
    it(`400 when ${name}`, async () => {
      const res = await post(newUserBody(over));
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
      expect(res.body.issues).toContainEqual({ path, message });
    });
  }

  it('accepts an 11-digit phone and translates messages for English callers', async () => {
    expect((await post(newUserBody({ phone: '09123456789' }))).status).toBe(201);
    const res = await post(newUserBody({ phone: '123' }), { 'accept-language': 'en' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Phone number must have 10 or 11 digits');
  });

  it('409 naming the field when the code or e-mail is taken (e-mail case-insensitively)', async () => {
    const first = newUserBody();
    expect((await post(first)).status).toBe(201);
    const sameCode = await post(newUserBody({ code: first.code }));
    expect(sameCode.status).toBe(409);
    expect(sameCode.body.message).toBe(`Mã "${first.code}" đã tồn tại`);
    const sameEmail = await post(newUserBody({ email: first.email.toUpperCase() }));
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.message).toBe(`Email "${first.email}" đã tồn tại`);
  });

  it('400 for a body that is not JSON', async () => {
    const res = await t.request('POST', '/api/users', {
      token: t.adminToken,
      body: 'not json',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
  });
});

describe('GET /users/:id', () => {
  it('returns the user with memberships and role links', async () => {
    const org = await t.createOrg('clb_truong', 'D-CLB');
    const role = await t.createRole('d_viewer', ['users.access']);
    const id = await insertUser(t, { familyName: 'Chi', givenName: 'Tiết' }, org);
    const { userRoles } = await import('../db/tables/roles');
    await runQuery(t.db.insert(userRoles).values({ userId: id, roleId: role, organizationId: org }));
    const res = await get(`/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, familyName: 'Chi', givenName: 'Tiết', class: null });
    expect(res.body.organizations).toEqual([
      {
        organizationId: org,
        isActive: true,
        role: 'member',
        joinedAt: expect.any(String),
        organization: { id: org, name: 'D-CLB', code: 'D-CLB', parentId: null, type: 'clb_truong' },
      },
    ]);
    expect(res.body.userRoles).toEqual([
      // Each link names its unit since issue 26 item 3 (commit 1ea1d2e).
      {
        id: expect.any(Number),
        roleId: role,
        organizationId: org,
        organization: { id: org, name: 'D-CLB', code: 'D-CLB', type: 'clb_truong' },
        isActive: true,
        role: { id: role, name: 'd_viewer', displayName: 'd_viewer', isActive: true },
      },
    ]);
    expect(res.body.passwordHash).toBeUndefined();
  });

  it('404 for an unknown id, 400 for a malformed one', async () => {
    expect((await get('/999999')).status).toBe(404);
    expect((await get('/999999')).body.message).toBe('Không tìm thấy người dùng');
    expect((await get('/abc')).status).toBe(400);
  });
});

describe('ids past a 32-bit integer', () => {
  it('are not found, on either engine (PostgreSQL refuses them against an integer key; that is no server fault)', async () => {
    for (const path of ['/api/users/99999999999', '/api/organizations/99999999999', '/api/classes/99999999999']) {
      const res = await t.request('GET', path, { token: t.adminToken });
      expect(res.status, path).toBe(404);
      expect(res.body, path).toHaveProperty('message');
    }
  });
});
