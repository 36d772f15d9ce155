/** Organization members import (levels 2 and 3), departments and classes imports, legacy department import. */
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { classes } from '../db/tables/classes';
import { departments } from '../db/tables/departments';
import { organizationMembers } from '../db/tables/organizations';
import { makeTestApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/fixture';
import { form, UNTHROTTLED, xlsx, type Cells } from './fixture';
import { allRows, firstRow, runQuery } from '../db/engine';

let t: TestApp;
let o: { root: number; faculty: number; cd1: number; cd2: number; otherFaculty: number; otherCd: number };

const memberOrgs = async (userId: number) =>
  (
    await allRows(
      t.db
        .select({ org: organizationMembers.organizationId, active: organizationMembers.isActive })
        .from(organizationMembers)
        .where(eq(organizationMembers.userId, userId)),
    )
  )
    .filter((m) => m.active)
    .map((m) => m.org)
    .sort((a, b) => a - b);

async function memberImport(
  level: number | string,
  orgId: number | null,
  header: string[],
  rows: Cells[],
  token = t.adminToken,
  options: Record<string, unknown> = {},
) {
  const q = orgId == null ? `?level=${level}` : `?level=${level}&organizationId=${orgId}`;
  const up = await t.request('POST', `/api/organizations/members/import/upload${q}`, { token, body: form(await xlsx(header, rows)) });
  if (up.status !== 201) return { up, validation: null, exec: null };
  const validation = await t.request('GET', `/api/organizations/import/${up.body.sessionId}/validate`, { token });
  const exec = await t.request('POST', `/api/organizations/import/${up.body.sessionId}/execute`, { token, body: { options } });
  return { up, validation, exec };
}

beforeAll(async () => {
  t = await makeTestApp(UNTHROTTLED);
  const root = await t.createOrg('doan_truong', 'MI-DT');
  const faculty = await t.createOrg('doan_co_so', 'MI-DCS', root);
  const cd1 = await t.createOrg('chi_doan', 'MI-CD1', faculty);
  const cd2 = await t.createOrg('chi_doan', 'MI-CD2', faculty);
  const otherFaculty = await t.createOrg('doan_co_so', 'MI-DCS2', root);
  const otherCd = await t.createOrg('chi_doan', 'MI-CDX', otherFaculty);
  o = { root, faculty, cd1, cd2, otherFaculty, otherCd };
});

describe('organization members import', () => {
  it('level 3: each code joins the unit and every parent; unknown codes and repeats are errors', async () => {
    const a = await insertUser(t, { code: 'MI001' });
    const b = await insertUser(t, { code: 'MI002' });
    const { up, validation, exec } = await memberImport(3, o.cd1, ['Mã sinh viên'], [['MI001'], ['MI002'], ['NOPE'], ['MI001'], ['']]);
    expect(up.status).toBe(201);
    expect(validation!.body.summary).toEqual({ total: 4, valid: 2, invalid: 2, duplicates: 1, conflicts: 0 });
    expect(validation!.body.errors.map((e: { message: string }) => e.message).join(' ')).toContain('NOPE');
    expect(exec!.body).toMatchObject({ importedCount: 2, failedCount: 2 });
    expect(await memberOrgs(a)).toEqual([o.root, o.faculty, o.cd1].sort((x, y) => x - y));
    expect(await memberOrgs(b)).toEqual([o.root, o.faculty, o.cd1].sort((x, y) => x - y));
  });

  it('level 3: an existing member is a conflict (skipped); an inactive membership is reactivated', async () => {
    const a = await insertUser(t, { code: 'MI010' });
    const b = await insertUser(t, { code: 'MI011' });
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: o.cd2, userId: a }));
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: o.cd2, userId: b, isActive: false }));
    const { validation, exec } = await memberImport(3, o.cd2, ['studentCode'], [['MI010'], ['MI011']]);
    expect(validation!.body.summary.conflicts).toBe(1);
    expect(exec!.body).toMatchObject({ success: true, importedCount: 1, skippedCount: 1 });
    expect(await memberOrgs(b)).toContain(o.cd2);
    expect(await memberOrgs(a)).toEqual([o.cd2]); // skipped: parents not added without updateExisting
  });

  it('level 2: the unit code picks a unit beneath the faculty; units elsewhere are refused', async () => {
    const a = await insertUser(t, { code: 'MI020' });
    const { up, validation, exec } = await memberImport(
      2,
      o.faculty,
      ['Mã sinh viên', 'Mã lớp/đơn vị'],
      [
        ['MI020', 'mi-cd2'],
        ['MI020', 'MI-CDX'],
        ['MI020', ''],
      ],
    );
    expect(up.status).toBe(201);
    const msgs = validation!.body.errors.map((e: { message: string }) => e.message).join(' | ');
    expect(msgs).toContain('MI-CDX');
    expect(msgs).toContain('Thiếu mã lớp/đơn vị');
    expect(exec!.body).toMatchObject({ importedCount: 1, failedCount: 2 });
    expect(await memberOrgs(a)).toEqual([o.root, o.faculty, o.cd2].sort((x, y) => x - y));
  });

  it('level 2 needs the unit column; a level-3 file at level 2 is refused naming it', async () => {
    const res = await t.request('POST', `/api/organizations/members/import/upload?level=2&organizationId=${o.faculty}`, {
      token: t.adminToken,
      body: form(await xlsx(['Mã sinh viên'], [['MI001']])),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Mã lớp/đơn vị');
  });

  it('a members export re-imports (its "Mã số" header is the member code)', async () => {
    await insertUser(t, { code: 'MI030' });
    const { up, exec } = await memberImport(3, o.cd1, ['Mã số', 'Họ', 'Tên'], [['MI030', 'Lê', 'An']]);
    expect(up.status).toBe(201);
    expect(exec!.body.importedCount).toBe(1);
  });

  it('level other than 2 or 3 → 400; missing or unknown organization → 400 / 404; organizationId may come in the form', async () => {
    for (const level of ['4', '1', 'x']) {
      const { up } = await memberImport(level, o.cd1, ['studentCode'], [['MI001']]);
      expect(up.status).toBe(400);
      expect(up.body.message).toContain('Level phải là 2 hoặc 3');
    }
    expect((await memberImport(3, null, ['studentCode'], [['MI001']])).up.status).toBe(400);
    expect((await memberImport(3, 999999, ['studentCode'], [['MI001']])).up.status).toBe(404);
    const viaForm = await t.request('POST', '/api/organizations/members/import/upload?level=3', {
      token: t.adminToken,
      body: form(await xlsx(['studentCode'], [['MI001']]), 'm.xlsx', { organizationId: String(o.cd1) }),
    });
    expect(viaForm.status).toBe(201);
  });

  it('needs organizations.add_member in the organization (or above it), for upload and for the session routes', async () => {
    const role = await t.createRole('mi_adder', ['organizations.access', 'organizations.add_member']);
    const adder = await t.createUser('MIADD', [{ roleId: role, organizationId: o.faculty }]);
    // Members of another unit of its faculty: only users already within reach may be added (issue 25 item 8, import-reach.test.ts).
    await insertUser(t, { code: 'MI040' }, o.cd2);
    const mi041 = await insertUser(t, { code: 'MI041' }, o.cd2);
    const inside = await memberImport(3, o.cd1, ['studentCode'], [['MI040'], ['MI041']], adder.token);
    expect(inside.up.status).toBe(201);
    expect(inside.exec!.body.importedCount).toBe(2);
    // Parents join only up to the importer's reach: the Đoàn root above its faculty is not written.
    expect(await memberOrgs(mi041)).toEqual([o.faculty, o.cd1, o.cd2].sort((x, y) => x - y));
    const outside = await memberImport(3, o.otherCd, ['studentCode'], [['MI040']], adder.token);
    expect(outside.up.status).toBe(403);
    const nobody = await t.createUser('MINONE');
    expect((await memberImport(3, o.cd1, ['studentCode'], [['MI040']], nobody.token)).up.status).toBe(403);
    // Another holder cannot use the adder's session.
    const other = await t.createUser('MIADD2', [{ roleId: role, organizationId: o.faculty }]);
    const up = await t.request('POST', `/api/organizations/members/import/upload?level=3&organizationId=${o.cd1}`, {
      token: adder.token,
      body: form(await xlsx(['studentCode'], [['MI040']])),
    });
    expect((await t.request('GET', `/api/organizations/import/${up.body.sessionId}/validate`, { token: other.token })).status).toBe(403);
    expect((await t.request('GET', `/api/organizations/import/${up.body.sessionId}/status`, { token: adder.token })).status).toBe(200);
  });
});

describe('departments and classes imports', () => {
  it('departments: creates, reports duplicates and conflicts, updates by code with updateExisting', async () => {
    await runQuery(t.db.insert(departments).values({ name: 'Khoa Cũ', code: 'DOLD', description: 'giữ' }));
    const file = await xlsx(
      ['Tên khoa/phòng ban', 'Mã', 'Mô tả'],
      [
        ['Khoa Toán', 'DTOAN', ''],
        ['Khoa Lý', 'DTOAN', ''],
        ['K', '', ''],
        ['Khoa Mới Tên', 'DOLD', 'mới'],
      ],
    );
    const up = await t.request('POST', '/api/departments/import/upload', { token: t.adminToken, body: form(file) });
    expect(up.status).toBe(201);
    const v = await t.request('GET', `/api/departments/import/${up.body.sessionId}/validate`, { token: t.adminToken });
    expect(v.body.summary).toEqual({ total: 4, valid: 2, invalid: 2, duplicates: 1, conflicts: 1 });
    const ex = await t.request('POST', `/api/departments/import/${up.body.sessionId}/execute`, {
      token: t.adminToken,
      body: { options: { updateExisting: true } },
    });
    expect(ex.body).toMatchObject({ importedCount: 2, failedCount: 2 });
    expect(await firstRow(t.db.select().from(departments).where(eq(departments.code, 'DOLD')))).toMatchObject({
      name: 'Khoa Mới Tên',
      description: 'mới',
    });
  });

  it('departments matched by name keep their code', async () => {
    await runQuery(t.db.insert(departments).values({ name: 'Phòng Đào tạo', code: 'PDT' }));
    const up = await t.request('POST', '/api/departments/import/upload', {
      token: t.adminToken,
      body: form(await xlsx(['name'], [['phòng đào tạo']])),
    });
    const ex = await t.request('POST', `/api/departments/import/${up.body.sessionId}/execute`, {
      token: t.adminToken,
      body: { options: { updateExisting: true } },
    });
    expect(ex.body.importedCount).toBe(1);
    expect((await firstRow(t.db.select().from(departments).where(eq(departments.code, 'PDT'))))!.name).toBe('phòng đào tạo');
  });

  it('legacy POST /departments/import uploads and executes in one call', async () => {
    const res = await t.request('POST', '/api/departments/import', {
      token: t.adminToken,
      body: form(await xlsx(['name', 'code'], [['Khoa Hóa', 'DHOA']])),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, importedCount: 1 });
    expect(await firstRow(t.db.select().from(departments).where(eq(departments.code, 'DHOA')))).toBeTruthy();
  });

  it('classes: department by code or name, year 2000–2100 (default this year)', async () => {
    await runQuery(t.db.insert(departments).values({ name: 'Khoa Sinh', code: 'DSINH' }));
    const file = await xlsx(
      ['Tên lớp', 'Mã lớp', 'Năm', 'Mã khoa'],
      [
        ['22SINH1', 'C22S1', 2022, 'DSINH'],
        ['22SINH2', 'C22S2', '', 'khoa sinh'],
        ['22SINH3', 'C22S3', 1999, ''],
        ['22SINH4', 'C22S4', 2022, 'NOPE'],
      ],
    );
    const up = await t.request('POST', '/api/classes/import/upload', { token: t.adminToken, body: form(file) });
    const ex = await t.request('POST', `/api/classes/import/${up.body.sessionId}/execute`, { token: t.adminToken, body: {} });
    expect(ex.body).toMatchObject({ importedCount: 2, failedCount: 2 });
    const c2 = (await firstRow(t.db.select().from(classes).where(eq(classes.code, 'C22S2'))))!;
    expect(c2.year).toBe(new Date().getFullYear());
    expect(c2.departmentId).toBe((await firstRow(t.db.select().from(departments).where(eq(departments.code, 'DSINH'))))!.id);
    expect(ex.body.errors.map((e: { message: string }) => e.message).join(' ')).toMatch(/2000 đến 2100.*NOPE/);
  });

  it('departments and classes imports need a global create grant; updates a global update grant', async () => {
    const root = await t.createOrg('doan_truong', 'MI-ROOT2');
    const role = await t.createRole('mi_cat', ['departments.access', 'departments.create', 'classes.access', 'classes.create']);
    const scoped = await t.createUser('MICATO', [{ roleId: role, organizationId: root }]);
    const global = await t.createUser('MICATG', [{ roleId: role }]);
    const file = await xlsx(['name', 'code'], [['Khoa Địa', 'DDIA']]);
    for (const path of ['/api/departments/import/upload', '/api/classes/import/upload', '/api/departments/import']) {
      expect((await t.request('POST', path, { token: scoped.token, body: form(file) })).status).toBe(403);
    }
    expect((await t.request('GET', '/api/departments/template', { token: scoped.token })).status).toBe(403);
    const up = await t.request('POST', '/api/departments/import/upload', {
      token: global.token,
      body: form(
        await xlsx(
          ['name', 'code'],
          [
            ['Khoa Đổi', 'DOLD'],
            ['Khoa Địa', 'DDIA'],
          ],
        ),
      ),
    });
    expect(up.status).toBe(201);
    const ex = await t.request('POST', `/api/departments/import/${up.body.sessionId}/execute`, {
      token: global.token,
      body: { options: { updateExisting: true } },
    });
    // Creating is allowed; updating an existing department needs departments.update.
    expect(ex.body).toMatchObject({ importedCount: 1, failedCount: 1 });
    expect(ex.body.errors[0].message).toContain('quyền cập nhật');
    expect(
      (await firstRow(
        t.db
          .select()
          .from(departments)
          .where(and(eq(departments.code, 'DOLD'))),
      ))!.name,
    ).toBe('Khoa Mới Tên');
  });
});
