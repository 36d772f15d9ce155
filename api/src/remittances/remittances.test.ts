import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../db/tables/roles';
import { makeTestApp, type TestApp } from '../test/harness';
import { campaigns, expectOk, join } from '../payments/fixture';
import { firstRow } from '../db/engine';

let t: TestApp;
let school: number;
let faculty: number;
let unitA: number;
let unitB: number;
let campaignId: number;
const token: Record<string, string> = {};

const figures = async (org: number, who = t.adminToken) =>
  expectOk(t.request('GET', `/api/payment-campaigns/${campaignId}/remittance?organizationId=${org}`, { token: who }));
const row = (report: any, org: number) => report.units.find((u: any) => u.organizationId === org);
const remit = (who: string, fromOrganizationId: number, amount: number) =>
  t.request('POST', '/api/remittances', {
    token: who,
    body: { campaignId, fromOrganizationId, amount, paidAt: '2025-06-01', note: 'Chuyển khoản' },
  });

beforeAll(async () => {
  t = await makeTestApp();
  school = await t.createOrg('doan_truong', 'RM-T', null, 'Đoàn trường');
  faculty = await t.createOrg('doan_co_so', 'RM-K', school, 'Đoàn khoa');
  unitA = await t.createOrg('chi_doan', 'RM-A', faculty, 'Chi đoàn A');
  unitB = await t.createOrg('chi_doan', 'RM-B', faculty, 'Chi đoàn B');
  const orgAdmin = (await firstRow(t.db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'org_admin'))))!.id;
  for (const [k, org] of [
    ['A', unitA],
    ['B', unitB],
    ['K', faculty],
    ['T', school],
  ] as const)
    token[k] = (await t.createUser(`RMADM${k}`, [{ roleId: orgAdmin, organizationId: org }])).token;
  const api = campaigns(t);
  const members: number[] = [];
  for (const [code, org] of [
    ['RMA1', unitA],
    ['RMA2', unitA],
    ['RMA3', unitA],
    ['RMB1', unitB],
    ['RMB2', unitB],
    ['RMB3', unitB],
  ] as const) {
    const u = await t.createUser(code);
    await join(t, u.id, org);
    members.push(u.id);
  }
  const { campaign, assignments } = await api.active(school, members, { amount: 24_000 });
  campaignId = campaign.id;
  // Everyone in A paid, two of three in B.
  for (const a of assignments.slice(0, 5))
    await expectOk(t.request('PATCH', `/api/payment/assignments/${a.id}/mark-paid`, { token: t.adminToken, body: { method: 'cash' } }));
});

describe('GET /api/payment-campaigns/:id/remittance', () => {
  it('each level keeps 2/3 of what it handles and owes the rest up; the figures add up the tree', async () => {
    const k = await figures(faculty);
    expect(row(k, unitA)).toMatchObject({
      collected: 72_000,
      ownCollected: 72_000,
      kept: 48_000,
      owedUp: 24_000,
      outstanding: 24_000,
      confirmed: 0,
    });
    expect(row(k, unitB)).toMatchObject({ collected: 48_000, kept: 32_000, owedUp: 16_000 });
    // The faculty handles what its units owe it (40,000): keeps floor(2/3) and owes the rest.
    expect(row(k, faculty)).toMatchObject({
      isSelf: true,
      collected: 120_000,
      ownCollected: 0,
      dueFromBelow: 40_000,
      kept: 26_666,
      owedUp: 13_334,
    });
    expect(k.totals).toMatchObject({ collected: 120_000, kept: 80_000, owedUp: 40_000 });
    const top = await figures(school);
    expect(row(top, school)).toMatchObject({ collected: 120_000, dueFromBelow: 13_334, kept: 13_334, owedUp: 0 });
    // Σ kept over every level = everything collected.
    expect(48_000 + 32_000 + 26_666 + 13_334).toBe(row(top, school).collected);
    // Without organizationId: the campaign's own organization.
    expect((await figures(school)).organizationId).toBe(school);
    expect((await expectOk(t.request('GET', `/api/payment-campaigns/${campaignId}/remittance`, { token: token.T }))).organizationId).toBe(
      school,
    );
  });

  it('is scoped: a unit sees itself, not its sibling nor the level above', async () => {
    expect((await figures(unitA, token.A)).units).toHaveLength(1);
    expect(
      (await t.request('GET', `/api/payment-campaigns/${campaignId}/remittance?organizationId=${unitB}`, { token: token.A })).status,
    ).toBe(403);
    expect(
      (await t.request('GET', `/api/payment-campaigns/${campaignId}/remittance?organizationId=${faculty}`, { token: token.A })).status,
    ).toBe(403);
    expect((await t.request('GET', `/api/payment-campaigns/${campaignId}/remittance`, { token: token.A })).status).toBe(403);
    const outside = await t.createOrg('chi_doan', 'RM-X');
    expect(
      (await t.request('GET', `/api/payment-campaigns/${campaignId}/remittance?organizationId=${outside}`, { token: t.adminToken })).status,
    ).toBe(400);
    expect((await t.request('GET', `/api/payment-campaigns/999999/remittance`, { token: t.adminToken })).status).toBe(404);
    expect(
      (await t.request('GET', `/api/payment-campaigns/${campaignId}/remittance?organizationId=abc`, { token: t.adminToken })).status,
    ).toBe(400);
  });
});

describe('remittances up two levels', () => {
  it('a unit records, only the level above confirms; unconfirmed stays owed', async () => {
    const sent = await expectOk(remit(token.A!, unitA, 24_000), 201);
    expect(sent).toMatchObject({ status: 'PENDING', fromOrganizationId: unitA, toOrganizationId: faculty, amount: 24_000 });
    expect(row(await figures(faculty), unitA)).toMatchObject({ pending: 24_000, confirmed: 0, outstanding: 24_000 });
    // The unit cannot confirm its own remittance, nor can a sibling.
    expect((await t.request('POST', `/api/remittances/${sent.id}/confirm`, { token: token.A })).status).toBe(403);
    expect((await t.request('POST', `/api/remittances/${sent.id}/confirm`, { token: token.B })).status).toBe(403);
    const ok = await expectOk(t.request('POST', `/api/remittances/${sent.id}/confirm`, { token: token.K }));
    expect(ok).toMatchObject({ status: 'CONFIRMED', confirmedByName: expect.any(String) });
    expect((await t.request('POST', `/api/remittances/${sent.id}/confirm`, { token: token.K })).status).toBe(409);
    const k = await figures(faculty, token.K);
    expect(row(k, unitA)).toMatchObject({ confirmed: 24_000, pending: 0, outstanding: 0 });
    expect(row(k, faculty)).toMatchObject({ receivedFromBelow: 24_000 });
    expect(k.remittances[0]).toMatchObject({ id: sent.id, fromOrganizationName: 'Chi đoàn A' });

    // Second level: the faculty passes its third up, the school confirms.
    const up = await expectOk(remit(token.K!, faculty, 13_334), 201);
    expect((await t.request('POST', `/api/remittances/${up.id}/confirm`, { token: token.K })).status).toBe(403);
    await expectOk(t.request('POST', `/api/remittances/${up.id}/confirm`, { token: token.T }));
    const top = await figures(school, token.T);
    expect(row(top, school)).toMatchObject({ receivedFromBelow: 13_334, kept: 13_334 });
    expect(row(top, faculty)).toMatchObject({ owedUp: 13_334, confirmed: 13_334, outstanding: 0 });
    // B has not remitted: still owed.
    expect(row(await figures(faculty, token.K), unitB)).toMatchObject({ owedUp: 16_000, confirmed: 0, outstanding: 16_000 });
  });

  it('refuses more than is owed, the top of the tree, out-of-scope senders and bad input', async () => {
    const over = await remit(token.A!, unitA, 1);
    expect(over.status).toBe(422);
    expect(over.body.message).toMatch(/vượt quá/);
    expect((await remit(token.B!, unitB, 16_001)).status).toBe(422);
    expect((await remit(token.B!, unitA, 1)).status).toBe(403);
    expect((await remit(token.A!, unitB, 1)).status).toBe(403);
    expect((await remit(t.adminToken, school, 1)).status).toBe(422);
    for (const bad of [{ amount: 0 }, { amount: -5 }, { amount: 1.5 }, { paidAt: 'hôm qua' }, { campaignId: 'x' }]) {
      const res = await t.request('POST', '/api/remittances', {
        token: token.B,
        body: { campaignId, fromOrganizationId: unitB, amount: 1000, paidAt: '2025-06-01', ...bad },
      });
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await t.request('POST', '/api/remittances/999999/confirm', { token: t.adminToken })).status).toBe(404);
    const future = await t.request('POST', '/api/remittances', {
      token: token.B,
      body: { campaignId, fromOrganizationId: unitB, amount: 1000, paidAt: '2999-01-01' },
    });
    expect(future.status).toBe(422);
  });

  it('a pending remittance can be withdrawn, after which it is owed again', async () => {
    // paidAt may be left out: today.
    const sent = await expectOk(
      t.request('POST', '/api/remittances', { token: token.B, body: { campaignId, fromOrganizationId: unitB, amount: 16_000 } }),
      201,
    );
    expect(Math.abs(Date.parse(sent.paidAt) - Date.now())).toBeLessThan(60_000);
    expect((await t.request('POST', `/api/remittances/${sent.id}/cancel`, { token: token.A })).status).toBe(403);
    await expectOk(t.request('POST', `/api/remittances/${sent.id}/cancel`, { token: token.B }));
    expect((await t.request('POST', `/api/remittances/${sent.id}/confirm`, { token: token.K })).status).toBe(409);
    expect(row(await figures(faculty), unitB)).toMatchObject({ pending: 0, outstanding: 16_000 });
  });

  it('exports a level as xlsx', async () => {
    const res = await t.app.request(`/api/payment-campaigns/${campaignId}/remittance/export?organizationId=${faculty}`, {
      headers: { authorization: `Bearer ${token.K}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as any);
    const ws = wb.worksheets[0]!;
    const names = ws.getColumn(2).values.slice(2);
    expect(names).toEqual(['Đoàn khoa (cấp này)', 'Chi đoàn A', 'Chi đoàn B', 'Cộng các đơn vị trực thuộc']);
    expect(
      (
        await t.app.request(`/api/payment-campaigns/${campaignId}/remittance/export?organizationId=${faculty}`, {
          headers: { authorization: `Bearer ${token.A}` },
        })
      ).status,
    ).toBe(403);
  });
});

describe('GET /api/remittances/campaigns', () => {
  it('lists the campaigns of the unit and the levels above it, for the unit officers only', async () => {
    const list = await expectOk(t.request('GET', `/api/remittances/campaigns?organizationId=${unitA}`, { token: token.A }));
    expect(list.campaigns.map((c: any) => c.id)).toContain(campaignId);
    expect((await t.request('GET', `/api/remittances/campaigns?organizationId=${unitB}`, { token: token.A })).status).toBe(403);
  });
});
