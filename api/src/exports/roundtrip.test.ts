/** Round trip: an export re-imported with updateExisting changes nothing (users rows, updatedAt included). */
import { USER_EXPORT_FIELDS } from '@doanhoi/shared';
import { asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { classes } from '../db/tables/classes';
import { departments } from '../db/tables/departments';
import { download, form, importUsers, readWorkbook, sheetRows, userRow } from '../imports/fixture';
import { organizationMembers } from '../db/tables/organizations';
import { makeTestApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/fixture';
import { users } from '../db/tables/users';
import { allRows, firstRow, runQuery } from '../db/engine';

let t: TestApp;
const allUsers = async () => await allRows(t.db.select().from(users).orderBy(asc(users.id)));
const allMemberships = async () => await allRows(t.db.select().from(organizationMembers).orderBy(asc(organizationMembers.id)));

async function reimport(buf: Uint8Array, token = t.adminToken, options: Record<string, unknown> = { updateExisting: true }) {
  const up = await t.request('POST', '/api/users/import/upload', { token, body: form(buf, 'users_export.xlsx') });
  expect(up.status).toBe(201);
  const v = await t.request('GET', `/api/users/import/${up.body.sessionId}/validate`, { token });
  const ex = await t.request('POST', `/api/users/import/${up.body.sessionId}/execute`, { token, body: { options } });
  return { up, v, ex };
}

beforeAll(async () => {
  t = await makeTestApp();
  const root = await t.createOrg('doan_truong', 'RT-DT');
  const cd = await t.createOrg('chi_doan', 'RT-CD', await t.createOrg('doan_co_so', 'RT-DCS', root));
  // A department whose name is another one's code, and two classes sharing a name: the export writes
  // names, and the import must still pick the record each user already points at.
  const deptA = (await firstRow(t.db.insert(departments).values({ name: 'CNTT', code: 'IT' }).returning())).id;
  const deptB = (await firstRow(t.db.insert(departments).values({ name: 'Khoa Công nghệ', code: 'CNTT' }).returning())).id;
  const c1 = (await firstRow(t.db.insert(classes).values({ name: 'Lớp chung', code: 'LC1', year: 2022 }).returning())).id;
  const c2 = (await firstRow(t.db.insert(classes).values({ name: 'Lớp chung', code: 'LC2', year: 2023 }).returning())).id;
  // With the member record (issue 30 item 8), which the export writes as the import reads it.
  const record = {
    dateOfBirth: '2004-02-29',
    gender: 'female',
    ethnicity: '53',
    religion: 'Cao Đài',
    doanJoinedAt: '2019-03-26',
    hoiJoinedAt: '2022-01-09',
    partyJoinedAt: '2024-05-19',
    hometown: 'Tây Ninh',
  } as const;
  await insertUser(
    t,
    {
      code: 'RT001',
      familyName: 'Nguyễn Thị Ngọc',
      givenName: 'Ánh',
      email: 'rt001@sv.vn',
      phone: '0901234567',
      classId: c1,
      managementDepartmentId: deptA,
      trainingDepartmentId: deptB,
      membershipStatus: 'both',
      ...record,
    },
    cd,
  );
  await insertUser(t, {
    code: 'RT002',
    familyName: 'Đặng',
    givenName: 'Đức',
    email: 'rt002@sv.vn',
    phone: null,
    classId: c2,
    userType: 'staff',
    membershipStatus: 'doan_vien',
    isActive: false,
  });
  await insertUser(t, {
    code: '00123',
    familyName: 'Lê',
    givenName: 'Hội',
    email: 'rt003@sv.vn',
    phone: '02838123456',
    membershipStatus: 'hoi_vien',
  });
  // Accounts created by an import (no hash, must change password) and with an explicit password.
  const res = await importUsers(t, [
    userRow({ code: 'RT004', familyName: 'Võ', givenName: 'Minh', email: 'rt004.minh@sv.vn', organizationCodes: 'RT-CD' }),
    userRow({ code: 'RT005', familyName: 'Phan', givenName: 'Yến', email: 'rt005@sv.vn', password: 'Secret#123' }),
  ]);
  expect(res.body.importedCount).toBe(2);
  // updatedAt in the past, so any write would show.
  await runQuery(t.db.update(users).set({ updatedAt: new Date('2024-01-02T03:04:05Z') }));
  void eq;
});

describe('export → import round trip', () => {
  it('re-importing an export of every field with updateExisting changes nothing', async () => {
    const before = await allUsers();
    const membersBefore = await allMemberships();
    const exp = await download(t, 'POST', '/api/export/users', t.adminToken, {
      fields: USER_EXPORT_FIELDS.map((f) => f.key),
      format: 'xlsx',
    });
    expect(exp.status).toBe(200);
    const { up, v, ex } = await reimport(exp.buf);
    // Columns the import does not know (status, dates) are listed, not refused; "Họ và tên" is read as
    // a full name and gives way to the Họ and Tên columns beside it.
    expect(up.body.ignoredColumns).toEqual(expect.arrayContaining(['Trạng thái', 'Ngày tạo']));
    expect(v.body.summary).toEqual({ total: before.length, valid: before.length, invalid: 0, duplicates: 0, conflicts: before.length });
    expect(ex.body).toMatchObject({ success: true, importedCount: 0, skippedCount: before.length, failedCount: 0 });
    expect(await allUsers()).toEqual(before);
    expect(await allMemberships()).toEqual(membersBefore);
  });

  it('a partial export (some columns) round-trips too, and an edit in the file is applied', async () => {
    const exp = await download(t, 'POST', '/api/export/users', t.adminToken, {
      fields: ['code', 'familyName', 'givenName', 'email', 'phone', 'class'],
    });
    const before = await allUsers();
    const { ex } = await reimport(exp.buf);
    expect(ex.body).toMatchObject({ importedCount: 0, failedCount: 0 });
    expect(await allUsers()).toEqual(before);

    const wb = await readWorkbook(exp.buf);
    const ws = wb.worksheets[0]!;
    const rows = sheetRows(ws);
    const r = rows.findIndex((x) => x[0] === 'RT002') + 1;
    ws.getRow(r).getCell(5).value = '0977777777';
    const edited = new Uint8Array(await wb.xlsx.writeBuffer());
    const again = await reimport(edited);
    expect(again.ex.body).toMatchObject({ importedCount: 1, failedCount: 0 });
    const rt2 = (await firstRow(t.db.select().from(users).where(eq(users.code, 'RT002'))))!;
    expect(rt2.phone).toBe('0977777777');
    expect(rt2.updatedAt.getTime()).toBeGreaterThan(new Date('2024-01-02T03:04:05Z').getTime());
    expect((await allUsers()).filter((u) => u.code !== 'RT002')).toEqual(before.filter((u) => u.code !== 'RT002'));
  });

  it('without updateExisting, every exported row is a skipped conflict', async () => {
    const exp = await download(t, 'POST', '/api/export/users', t.adminToken, { fields: ['code', 'familyName', 'givenName', 'email'] });
    const before = await allUsers();
    const { ex } = await reimport(exp.buf, t.adminToken, {});
    expect(ex.body).toMatchObject({ success: true, importedCount: 0, skippedCount: before.length });
    expect(await allUsers()).toEqual(before);
  });
});
