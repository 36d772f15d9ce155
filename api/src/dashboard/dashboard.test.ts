/**
 * The live dashboard (issue 15.1): real figures for the current organization's units, scoped like
 * the lists, money figures only with payment-campaigns.view_reports, and each chart as xlsx.
 */
import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { join } from '../payments/fixture';
import { feeLevels, paymentAssignments, paymentCampaigns } from '../db/tables/payments';
import { users } from '../db/tables/users';
import { organizationMembers } from '../db/tables/organizations';
import { currentTerm } from './scope';
import { firstRow, runQuery } from '../db/engine';
import { mapInOrder } from '../lib/in-order';

let t: TestApp;
let root: number, f1: number, f2: number, c1: number, c2: number, c3: number;
let superToken: string;
let facultyAdmin: { id: number; token: string };
let facultyMembersOnly: { id: number; token: string };
let screenHolder: { id: number; token: string };
let plainMember: { id: number; token: string };
let campaignF1: number, campaignF2: number;
let assignmentsF1: number[];

async function activeCampaign(organizationId: number, userIds: number[], amount = 50_000) {
  const now = Date.now();
  const id = (
    await firstRow(
      t.db
        .insert(paymentCampaigns)
        .values({
          organizationId,
          name: `Đoàn phí ${organizationId}`,
          startDate: new Date(now - 86_400_000),
          endDate: new Date(now + 30 * 86_400_000),
          status: 'ACTIVE',
        })
        .returning(),
    )
  ).id;
  const level = (await firstRow(t.db.insert(feeLevels).values({ campaignId: id, levelName: 'Chuẩn', amount }).returning())).id;
  const ids = await mapInOrder(
    userIds,
    async (userId) =>
      (await firstRow(t.db.insert(paymentAssignments).values({ campaignId: id, userId, feeLevelId: level, amount }).returning())).id,
  );
  return { id, ids };
}

async function member(code: string, orgId: number, status: 'none' | 'doan_vien' | 'hoi_vien' | 'both', joinedAt = new Date()) {
  const u = await t.createUser(code);
  await runQuery(t.db.update(users).set({ membershipStatus: status }).where(eq(users.id, u.id)));
  await runQuery(t.db.insert(organizationMembers).values({ userId: u.id, organizationId: orgId, joinedAt }));
  return u;
}

const get = (path: string, token: string, headers: Record<string, string> = {}) => t.request('GET', path, { token, headers });

beforeAll(async () => {
  t = await makeTestApp();
  superToken = t.adminToken;
  root = await t.createOrg('doan_truong', 'DB-ROOT', null, 'Đoàn Trường');
  f1 = await t.createOrg('doan_co_so', 'DB-F1', root, 'Đoàn khoa CNTT');
  f2 = await t.createOrg('doan_co_so', 'DB-F2', root, 'Đoàn khoa Kinh tế');
  c1 = await t.createOrg('chi_doan', 'DB-C1', f1, 'Chi đoàn 1');
  c2 = await t.createOrg('chi_doan', 'DB-C2', f1, 'Chi đoàn 2');
  c3 = await t.createOrg('chi_doan', 'DB-C3', f2, 'Chi đoàn 3');
  const reports = await t.createRole('db_reports', [
    'dashboard.access',
    'organizations.view_member_count',
    'payment-campaigns.access',
    'payment-campaigns.view_reports',
    'payment-campaigns.manage_assignments',
  ]);
  const membersOnly = await t.createRole('db_members', ['dashboard.access', 'organizations.view_member_count']);
  const screenOnly = await t.createRole('db_screen', ['dashboard.access']);
  screenHolder = await t.createUser('DBSO', [{ roleId: screenOnly, organizationId: null }]);
  facultyAdmin = await t.createUser('DBFA', [{ roleId: reports, organizationId: f1 }]);
  facultyMembersOnly = await t.createUser('DBFM', [{ roleId: membersOnly, organizationId: f1 }]);
  plainMember = await t.createUser('DBPM');
  const longAgo = new Date(currentTerm().start - 86_400_000);
  const a = await member('DBA', c1, 'both');
  const b = await member('DBB', c1, 'doan_vien', longAgo);
  const c = await member('DBC', c2, 'hoi_vien');
  const d = await member('DBD', c3, 'none', longAgo);
  await join(t, a.id, c2); // in two chi đoàn of one faculty: counted once there
  const p1 = await activeCampaign(c1, [a.id, b.id, c.id]);
  campaignF1 = p1.id;
  assignmentsF1 = p1.ids;
  campaignF2 = (await activeCampaign(f2, [d.id], 100_000)).id;
});

describe('GET /api/dashboard/members', () => {
  it('gives a super admin the units of the chosen organization with the Đoàn/Hội split and this term’s joins', async () => {
    const res = await get(`/api/dashboard/members?organizationId=${root}`, superToken);
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.units.map((u: { name: string }) => [u.name, u]));
    expect(byName['Đoàn khoa CNTT']).toMatchObject({ members: 3, doanVien: 2, hoiVien: 2, joinsThisTerm: 2 });
    expect(byName['Đoàn khoa Kinh tế']).toMatchObject({ members: 1, doanVien: 0, hoiVien: 0, joinsThisTerm: 0 });
    expect(res.body.totals).toMatchObject({ members: 4, doanVien: 2, hoiVien: 2, joinsThisTerm: 2, organizations: 6 });
  });

  it('shows a faculty admin its faculty (by default and when chosen) and refuses another faculty', async () => {
    const own = await get('/api/dashboard/members', facultyAdmin.token);
    expect(own.status).toBe(200);
    expect(own.body.units.map((u: { name: string }) => u.name)).toEqual(['Đoàn khoa CNTT']);
    const chosen = await get(`/api/dashboard/members?organizationId=${f1}`, facultyAdmin.token);
    expect(chosen.body.units.map((u: { name: string; members: number }) => [u.name, u.members])).toEqual([
      ['Chi đoàn 1', 2],
      ['Chi đoàn 2', 2],
    ]);
    expect((await get(`/api/dashboard/members?organizationId=${f2}`, facultyAdmin.token)).status).toBe(403);
    expect((await get(`/api/dashboard/members?organizationId=${root}`, facultyAdmin.token)).status).toBe(403);
  });

  it('sums two separate grants from the memberships, a member of both counted once', async () => {
    const role = await t.createRole('db_two_grants', ['dashboard.access', 'organizations.view_member_count']);
    const officer = await t.createUser('DBTWO', [
      { roleId: role, organizationId: c1 },
      { roleId: role, organizationId: c2 },
    ]);
    const res = await get('/api/dashboard/members', officer.token);
    expect(res.status).toBe(200);
    expect(res.body.units.map((u: { name: string; members: number }) => [u.name, u.members])).toEqual([
      ['Chi đoàn 1', 2],
      ['Chi đoàn 2', 2],
    ]);
    expect(res.body.totals).toEqual({ members: 3, doanVien: 2, hoiVien: 2, joinsThisTerm: 2, organizations: 2 });
  });

  it('refuses member counts to a global dashboard.access without organizations.view_member_count (a member)', async () => {
    const res = await get('/api/dashboard/members', screenHolder.token);
    expect(res.status).toBe(403);
    expect((await get(`/api/dashboard/members?organizationId=${root}`, screenHolder.token)).status).toBe(403);
    expect(
      (await t.app.request(`/api/dashboard/members?format=xlsx`, { headers: { authorization: `Bearer ${screenHolder.token}` } })).status,
    ).toBe(403);
  });

  it('refuses a user without dashboard.access, and answers 400/404 for a bad or unknown organization', async () => {
    const res = await get('/api/dashboard/members', plainMember.token);
    expect(res.status).toBe(403);
    expect(res.body.message).toBeTruthy();
    expect((await get('/api/dashboard/members?organizationId=abc', superToken)).status).toBe(400);
    expect((await get('/api/dashboard/members?organizationId=999999', superToken)).status).toBe(404);
    expect((await t.request('GET', '/api/dashboard/members')).status).toBe(401);
  });
});

describe('GET /api/dashboard/campaigns', () => {
  it('gives collection per campaign and per unit, the lagging units, and moves when a fee is marked paid', async () => {
    const before = await get(`/api/dashboard/campaigns?organizationId=${root}`, superToken);
    expect(before.status).toBe(200);
    expect(before.body.campaigns.map((c: { id: number }) => c.id).sort()).toEqual([campaignF1, campaignF2].sort());
    const cntt = () => before.body.units.find((u: { organizationId: number }) => u.organizationId === f1);
    expect(cntt()).toMatchObject({ assigned: 3, paid: 0, expected: 150_000, collected: 0, rate: 0 });

    const paid = await t.request('PATCH', `/api/payment/assignments/${assignmentsF1[0]}/mark-paid`, {
      token: facultyAdmin.token,
      body: { method: 'cash' },
    });
    expect(paid.status).toBe(200);
    const after = await get(`/api/dashboard/campaigns?organizationId=${root}`, superToken);
    const unit = after.body.units.find((u: { organizationId: number }) => u.organizationId === f1);
    expect(unit).toMatchObject({ assigned: 3, paid: 1, expected: 150_000, collected: 50_000, rate: 33.3 });
    expect(after.body.campaigns.find((c: { id: number }) => c.id === campaignF1)).toMatchObject({
      paid: 1,
      assigned: 3,
      collected: 50_000,
      expected: 150_000,
    });
    expect(after.body.totals).toMatchObject({ assigned: 4, expected: 250_000, collected: 50_000 });
    // Kinh tế has collected nothing: it lags most.
    expect(after.body.lagging[0]).toMatchObject({ organizationId: f2, rate: 0 });
  });

  it('tells the campaign statistics’ story of test money: a sandbox-settled fee is neither paid nor collected, shown apart (issue 26 item 9)', async () => {
    await runQuery(
      t.db
        .update(paymentAssignments)
        .set({ status: 'PAID', paidAmount: 50_000, isTestPayment: true })
        .where(eq(paymentAssignments.id, assignmentsF1[1]!)),
    );
    const res = await get(`/api/dashboard/campaigns?organizationId=${root}`, superToken);
    const campaign = res.body.campaigns.find((c: { id: number }) => c.id === campaignF1);
    expect(campaign).toMatchObject({ assigned: 3, paid: 1, testPaid: 1, collected: 50_000, rate: 33.3 });
    expect(res.body.units.find((u: { organizationId: number }) => u.organizationId === f1)).toMatchObject({
      paid: 1,
      testPaid: 1,
      collected: 50_000,
    });
    expect(res.body.totals).toMatchObject({ paid: 1, testPaid: 1, collected: 50_000 });
    const stats = await get(`/api/payment-campaigns/${campaignF1}/statistics`, superToken);
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ paidCount: campaign.paid, testPaidCount: campaign.testPaid, collected: campaign.collected });
    // The workbook says it apart too.
    const xlsx = await t.app.request(`/api/dashboard/campaigns?organizationId=${root}&format=xlsx`, {
      headers: { authorization: `Bearer ${superToken}` },
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await xlsx.arrayBuffer());
    const sheet = wb.worksheets[1]!;
    const header = sheet.getRow(1).values as unknown[];
    const row = Array.from({ length: sheet.rowCount - 1 }, (_, i) => sheet.getRow(i + 2).values as unknown[]).find((r) =>
      r.includes(`Đoàn phí ${c1}`),
    )!;
    expect(row[header.indexOf('Đã nộp')]).toBe(1);
    expect(row[header.indexOf('Thanh toán thử (không tính)')]).toBe(1);
    await runQuery(
      t.db
        .update(paymentAssignments)
        .set({ status: 'PENDING', paidAmount: 0, isTestPayment: false })
        .where(eq(paymentAssignments.id, assignmentsF1[1]!)),
    );
  });

  it('counts a fee past its campaign end as overdue money', async () => {
    await runQuery(t.db.update(paymentAssignments).set({ status: 'OVERDUE' }).where(eq(paymentAssignments.campaignId, campaignF2)));
    const res = await get(`/api/dashboard/campaigns?organizationId=${f2}`, superToken);
    expect(res.body.totals).toMatchObject({ overdueAmount: 100_000, overdueCount: 1 });
  });

  it('shows a faculty admin only its campaigns and refuses money figures without view_reports', async () => {
    const own = await get(`/api/dashboard/campaigns?organizationId=${f1}`, facultyAdmin.token);
    expect(own.status).toBe(200);
    expect(own.body.campaigns.map((c: { id: number }) => c.id)).toEqual([campaignF1]);
    expect((await get('/api/dashboard/campaigns', facultyAdmin.token)).body.campaigns.map((c: { id: number }) => c.id)).toEqual([
      campaignF1,
    ]);
    expect((await get(`/api/dashboard/campaigns?organizationId=${f2}`, facultyAdmin.token)).status).toBe(403);
    expect((await get(`/api/dashboard/campaigns?organizationId=${f1}`, facultyMembersOnly.token)).status).toBe(403);
    expect((await get('/api/dashboard/campaigns', facultyMembersOnly.token)).status).toBe(403);
    expect((await get('/api/dashboard/campaigns', plainMember.token)).status).toBe(403);
    // …while the membership figures stay open to the members-only holder.
    expect((await get(`/api/dashboard/members?organizationId=${f1}`, facultyMembersOnly.token)).status).toBe(200);
  });
});

describe('GET /api/dashboard/weekly', () => {
  it('gives the money collected per week of a campaign in scope, and 403 outside it', async () => {
    const res = await get(`/api/dashboard/weekly?campaignId=${campaignF1}`, facultyAdmin.token);
    expect(res.status).toBe(200);
    expect(res.body.expected).toBe(150_000);
    const last = res.body.weeks.at(-1);
    expect(last).toMatchObject({ collected: 50_000, payments: 1, cumulative: 50_000 });
    expect(last.weekStart).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(new Date(`${last.weekStart}T00:00:00Z`).getUTCDay()).toBe(1);
    expect((await get(`/api/dashboard/weekly?campaignId=${campaignF2}`, facultyAdmin.token)).status).toBe(403);
    expect((await get(`/api/dashboard/weekly?campaignId=${campaignF1}`, facultyMembersOnly.token)).status).toBe(403);
    expect((await get('/api/dashboard/weekly?campaignId=999999', superToken)).status).toBe(404);
    expect((await get('/api/dashboard/weekly', superToken)).status).toBe(400);
  });
});

describe('format=xlsx', () => {
  it('downloads a chart’s data as a workbook with titles in the caller’s language', async () => {
    const res = await t.app.request(`/api/dashboard/members?organizationId=${f1}&format=xlsx`, {
      headers: { authorization: `Bearer ${superToken}`, 'accept-language': 'en' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).values).toEqual([undefined, 'Unit', 'Members', 'Youth union members', 'Association members', 'Joined this term']);
    expect(ws.getRow(2).getCell(1).value).toBe('Chi đoàn 1');
    expect(ws.getRow(2).getCell(2).value).toBe(2);
    // The money workbook obeys the same rule as the figures.
    const refused = await t.app.request(`/api/dashboard/campaigns?organizationId=${f1}&format=xlsx`, {
      headers: { authorization: `Bearer ${facultyMembersOnly.token}` },
    });
    expect(refused.status).toBe(403);
  });
});
