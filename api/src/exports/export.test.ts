/** Exports: chosen fields with Vietnamese headers, vi dates, file names, bad requests, permissions and scoping. */
import { formatDate } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { classes } from '../db/tables/classes';
import { departments } from '../db/tables/departments';
import { download, readWorkbook, sheetRows, UNTHROTTLED } from '../imports/fixture';
import { organizationMembers } from '../db/tables/organizations';
import { feeLevels, paymentAssignments, paymentCampaigns } from '../db/tables/payments';
import { makeTestApp, type TestApp } from '../test/harness';
import { insertUser } from '../users/fixture';
import { users } from '../db/tables/users';
import { allRows, firstRow, runQuery } from '../db/engine';
import { mapInOrder } from '../lib/in-order';

let t: TestApp;
let o: { root: number; faculty: number; cd1: number; other: number };
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Ho_Chi_Minh' }).format(new Date());

async function exportRows(path: string, body: unknown, token = t.adminToken) {
  const res = await download(t, 'POST', path, token, body);
  if (res.status !== 200) return { res, rows: [] as unknown[][], ws: null };
  const ws = (await readWorkbook(res.buf)).worksheets[0]!;
  return { res, rows: sheetRows(ws), ws };
}

beforeAll(async () => {
  t = await makeTestApp(UNTHROTTLED);
  const root = await t.createOrg('doan_truong', 'EX-DT');
  const faculty = await t.createOrg('doan_co_so', 'EX-DCS', root, 'Đoàn khoa Công nghệ');
  const cd1 = await t.createOrg('chi_doan', 'EX-CD1', faculty, 'Chi đoàn 22CNTT1');
  const other = await t.createOrg('doan_co_so', 'EX-DCS2', root);
  o = { root, faculty, cd1, other };
  const dept = (await firstRow(t.db.insert(departments).values({ name: 'Khoa Công nghệ Thông tin', code: 'CNTT' }).returning())).id;
  const cls = (await firstRow(t.db.insert(classes).values({ name: '22CNTT1', code: 'L22', year: 2022, departmentId: dept }).returning()))
    .id;
  const a = await insertUser(t, {
    code: 'EX001',
    familyName: 'Nguyễn Văn',
    givenName: 'An',
    email: 'ex001@sv.vn',
    phone: '0901111111',
    classId: cls,
    managementDepartmentId: dept,
    userType: 'staff',
    membershipStatus: 'both',
  });
  const b = await insertUser(t, { code: 'EX002', familyName: 'Trần Thị', givenName: 'Bình', email: 'ex002@sv.vn', phone: null });
  await runQuery(t.db.insert(organizationMembers).values({ organizationId: cd1, userId: a }));
  await runQuery(t.db.insert(organizationMembers).values({ organizationId: faculty, userId: a }));
  await runQuery(t.db.insert(organizationMembers).values({ organizationId: other, userId: b }));
});

describe('POST /export/users', () => {
  it('writes only the chosen fields, in the dialog’s order, with Vietnamese headers and labels', async () => {
    const { res, rows } = await exportRows('/api/export/users', {
      fields: ['email', 'code', 'userType', 'membershipStatus', 'class', 'managementDepartment', 'fullName'],
      format: 'xlsx',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml.sheet');
    expect(rows[0]).toEqual(['Mã số', 'Họ và tên', 'Email', 'Khoa quản lý', 'Lớp', 'Loại người dùng', 'Đoàn viên/Hội viên']);
    const an = rows.find((r) => r[0] === 'EX001')!;
    expect(an).toEqual(['EX001', 'Nguyễn Văn An', 'ex001@sv.vn', 'Khoa Công nghệ Thông tin', '22CNTT1', 'Cán bộ', 'Đoàn viên và Hội viên']);
    const binh = rows.find((r) => r[0] === 'EX002')!;
    expect(binh.slice(0, 3)).toEqual(['EX002', 'Trần Thị Bình', 'ex002@sv.vn']);
    expect(binh[5]).toBe('Sinh viên');
    expect(binh[6]).toBe('Không');
    expect(rows).toHaveLength(1 + (await allRows(t.db.select().from(users))).length);
  });

  it('dates are Excel dates shown dd/mm/yyyy, on the Vietnam calendar day', async () => {
    const id = (await firstRow(t.db.select().from(users).where(eq(users.code, 'EX002'))))!.id;
    // 20:00 UTC is already the next day in Vietnam.
    await runQuery(
      t.db
        .update(users)
        .set({ createdAt: new Date('2024-03-31T20:00:00Z') })
        .where(eq(users.id, id)),
    );
    const { ws, rows } = await exportRows('/api/export/users', { fields: ['code', 'createdAt', 'isActive'] });
    expect(rows[0]).toEqual(['Mã số', 'Trạng thái', 'Ngày tạo']);
    const r = rows.findIndex((x) => x[0] === 'EX002') + 1;
    const cell = ws!.getRow(r).getCell(3);
    expect(cell.value).toBeInstanceOf(Date);
    expect(cell.numFmt).toBe('dd/mm/yyyy');
    const d = cell.value as Date;
    expect(`${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`).toBe(
      formatDate(new Date('2024-03-31T20:00:00Z')),
    );
    expect(formatDate(new Date('2024-03-31T20:00:00Z'))).toBe('01/04/2024');
    expect(ws!.getRow(r).getCell(2).value).toBe('Hoạt động');
  });

  it('names the file prefix_accent-stripped-name_date.xlsx', async () => {
    const { res } = await exportRows('/api/export/users', { fields: ['code'] });
    expect(res.headers.get('content-disposition')).toContain(`filename="users_danh-sach-nguoi-dung_${today()}.xlsx"`);
  });

  it('filters like the list: userType, membershipStatus, search, organization subtree', async () => {
    const codes = async (body: Record<string, unknown>) =>
      (await exportRows('/api/export/users', { fields: ['code'], ...body })).rows.slice(1).map((r) => r[0]);
    expect(await codes({ userType: 'staff' })).toEqual(['ADMIN', 'EX001']);
    expect(await codes({ membershipStatus: 'both' })).toEqual(['EX001']);
    expect(await codes({ search: 'tran binh' })).toEqual(['EX002']);
    // A search with other filters: the matches' ids, then the filters on their rows (exports/users.ts userPages).
    expect(await codes({ search: 'ex00', membershipStatus: 'both' })).toEqual(['EX001']);
    expect(await codes({ search: 'ex00', organizationId: o.other })).toEqual(['EX002']);
    expect(await codes({ organizationId: o.faculty })).toEqual(['EX001']);
    expect((await exportRows('/api/export/users', { fields: ['code'], organizationId: 999999 })).res.status).toBe(404);
    expect((await exportRows('/api/export/users', { fields: ['code'], userType: 'alien' })).res.status).toBe(400);
  });

  it('no fields → 400 with the spec’s message; unknown field or format → 400', async () => {
    for (const body of [{ fields: [] }, {}, { format: 'xlsx' }]) {
      const res = await t.request('POST', '/api/export/users', { token: t.adminToken, body });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('Vui lòng chọn ít nhất một trường để xuất');
    }
    const unknown = await t.request('POST', '/api/export/users', { token: t.adminToken, body: { fields: ['code', 'passwordHash'] } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('passwordHash');
    expect((await t.request('POST', '/api/export/users', { token: t.adminToken, body: { fields: ['code'], format: 'csv' } })).status).toBe(
      400,
    );
  });

  it('needs a sign-in and users.export; an organization-scoped exporter gets only the active members of its subtree', async () => {
    expect((await t.request('POST', '/api/export/users', { body: { fields: ['code'] } })).status).toBe(401);
    const viewer = await t.createUser('EXVIEW', [{ roleId: await t.createRole('ex_viewer', ['users.access', 'users.create']) }]);
    expect((await t.request('POST', '/api/export/users', { token: viewer.token, body: { fields: ['code'] } })).status).toBe(403);
    const exporterRole = await t.createRole('ex_exporter', ['users.access', 'users.export']);
    const scoped = await t.createUser('EXORG', [{ roleId: exporterRole, organizationId: o.faculty }]);
    const inactive = await insertUser(t, { code: 'EX003' });
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: o.cd1, userId: inactive, isActive: false }));
    const { rows } = await exportRows('/api/export/users', { fields: ['code'] }, scoped.token);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['EX001']);
    // A search matching users in and out of the exporter's scope: only those in it.
    const searched = await exportRows('/api/export/users', { fields: ['code'], search: 'ex00' }, scoped.token);
    expect(searched.rows.slice(1).map((r) => r[0])).toEqual(['EX001']);
    const global = await t.createUser('EXGLOB', [{ roleId: exporterRole }]);
    expect((await exportRows('/api/export/users', { fields: ['code'] }, global.token)).rows.length).toBe(
      1 + (await allRows(t.db.select().from(users))).length,
    );
  });
});

describe('POST /export/organizations/:id/members', () => {
  it('exports the organization’s members with role and joining date; file named after the organization', async () => {
    const { res, rows } = await exportRows(`/api/export/organizations/${o.cd1}/members`, {
      fields: ['code', 'fullName', 'role', 'joinedAt'],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(`filename="members_chi-doan-22cntt1_${today()}.xlsx"`);
    expect(rows[0]).toEqual(['Mã số', 'Họ và tên', 'Vai trò trong tổ chức', 'Ngày tham gia']);
    expect(rows.slice(1).map((r) => r.slice(0, 3))).toEqual([['EX001', 'Nguyễn Văn An', 'Thành viên']]);
    expect(rows[1]![3]).toBeInstanceOf(Date);
  });

  it('needs organizations.export in that organization (or above); unknown organization → 403 for a scoped holder, 404 for a super admin', async () => {
    const role = await t.createRole('ex_org_export', ['organizations.access', 'organizations.export']);
    const holder = await t.createUser('EXMEM', [{ roleId: role, organizationId: o.faculty }]);
    expect((await download(t, 'POST', `/api/export/organizations/${o.cd1}/members`, holder.token, { fields: ['code'] })).status).toBe(200);
    expect((await download(t, 'POST', `/api/export/organizations/${o.other}/members`, holder.token, { fields: ['code'] })).status).toBe(
      403,
    );
    expect((await download(t, 'POST', `/api/export/organizations/999999/members`, holder.token, { fields: ['code'] })).status).toBe(403);
    expect((await download(t, 'POST', `/api/export/organizations/999999/members`, t.adminToken, { fields: ['code'] })).status).toBe(404);
    expect(
      (await t.request('POST', `/api/export/organizations/${o.cd1}/members`, { token: t.adminToken, body: { fields: [] } })).status,
    ).toBe(400);
  });
});

describe('POST /export/payment-assignments/:campaignId', () => {
  it('exports assignments with VND amounts and vi dates; needs payment-campaigns.export in the campaign’s organization', async () => {
    const user = (await firstRow(t.db.select().from(users).where(eq(users.code, 'EX001'))))!;
    const campaign = (
      await firstRow(
        t.db
          .insert(paymentCampaigns)
          .values({
            organizationId: o.faculty,
            name: 'Đoàn phí Học kỳ I',
            startDate: new Date('2024-09-01'),
            endDate: new Date('2024-12-31'),
            status: 'ACTIVE',
          })
          .returning(),
      )
    ).id;
    const level = (
      await firstRow(t.db.insert(feeLevels).values({ campaignId: campaign, levelName: 'Mức chuẩn', amount: 150000 }).returning())
    ).id;
    await runQuery(
      t.db.insert(paymentAssignments).values({
        campaignId: campaign,
        userId: user.id,
        feeLevelId: level,
        amount: 150000,
        status: 'PAID',
        paidAt: new Date('2024-10-02T03:00:00Z'),
        paidAmount: 150000,
        paymentMethod: 'MANUAL',
      }),
    );
    const { res, rows, ws } = await exportRows(`/api/export/payment-assignments/${campaign}`, {
      fields: ['memberCode', 'memberName', 'amount', 'status', 'paidAt', 'paymentMethod'],
      format: 'xlsx',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(`filename="assignments_doan-phi-hoc-ky-i_${today()}.xlsx"`);
    expect(rows[0]).toEqual(['Mã số', 'Họ và tên', 'Số tiền (VND)', 'Trạng thái', 'Ngày thanh toán', 'Hình thức']);
    expect(rows[1]!.slice(0, 4)).toEqual(['EX001', 'Nguyễn Văn An', 150000, 'Đã thanh toán']);
    expect(ws!.getRow(2).getCell(3).numFmt).toContain('#,##0');
    expect(ws!.getRow(2).getCell(5).numFmt).toBe('dd/mm/yyyy');
    expect(rows[1]![5]).toBe('Thủ công');

    const role = await t.createRole('ex_pay_export', ['payment-campaigns.access', 'payment-campaigns.export']);
    const inside = await t.createUser('EXPAYI', [{ roleId: role, organizationId: o.root }]);
    const outside = await t.createUser('EXPAYO', [{ roleId: role, organizationId: o.other }]);
    expect(
      (await download(t, 'POST', `/api/export/payment-assignments/${campaign}`, inside.token, { fields: ['memberCode'] })).status,
    ).toBe(200);
    expect(
      (await download(t, 'POST', `/api/export/payment-assignments/${campaign}`, outside.token, { fields: ['memberCode'] })).status,
    ).toBe(403);
    expect((await download(t, 'POST', `/api/export/payment-assignments/999999`, t.adminToken, { fields: ['memberCode'] })).status).toBe(
      404,
    );
    expect(
      (await t.request('POST', `/api/export/payment-assignments/${campaign}`, { token: t.adminToken, body: { fields: ['code'] } })).status,
    ).toBe(400);
  });

  it("exports each assignment's own amount and marks sandbox payments as test money", async () => {
    const [u1, u2] = await mapInOrder(
      ['EX001', 'EX002'],
      async (code) => (await firstRow(t.db.select().from(users).where(eq(users.code, code))))!,
    );
    const campaign = (
      await firstRow(
        t.db
          .insert(paymentCampaigns)
          .values({
            organizationId: o.faculty,
            name: 'Hội phí',
            startDate: new Date('2024-09-01'),
            endDate: new Date('2024-12-31'),
            status: 'ACTIVE',
          })
          .returning(),
      )
    ).id;
    // The level was raised to 120.000 after the first member had paid 100.000: that fee keeps its amount.
    const level = (
      await firstRow(t.db.insert(feeLevels).values({ campaignId: campaign, levelName: 'Mức chuẩn', amount: 120000 }).returning())
    ).id;
    await runQuery(
      t.db.insert(paymentAssignments).values({
        campaignId: campaign,
        userId: u1!.id,
        feeLevelId: level,
        amount: 100000,
        status: 'PAID',
        paidAmount: 100000,
        paymentMethod: 'ONLINE',
        isTestPayment: true,
      }),
    );
    await runQuery(
      t.db.insert(paymentAssignments).values({
        campaignId: campaign,
        userId: u2!.id,
        feeLevelId: level,
        amount: 120000,
        status: 'PAID',
        paidAmount: 120000,
        paymentMethod: 'MANUAL',
      }),
    );
    const { rows } = await exportRows(`/api/export/payment-assignments/${campaign}`, {
      fields: ['memberCode', 'amount', 'paymentMethod'],
      format: 'xlsx',
    });
    expect(rows.slice(1).map((r) => r.slice(0, 3))).toEqual([
      ['EX001', 100000, 'Thử nghiệm (sandbox, không phải tiền thật)'],
      ['EX002', 120000, 'Thủ công'],
    ]);
  });
});
