import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { organizationMembers } from '../db/tables/organizations';
import { feeLevels, paymentAssignments, paymentCampaigns } from '../db/tables/payments';
import { roles } from '../db/tables/roles';
import { users } from '../db/tables/users';
import { makeTestApp, type TestApp } from '../test/harness';
import { expectOk, vnLocal } from '../payments/fixture';
import { allRows, firstRow, runQuery } from '../db/engine';

let t: TestApp;
let school: number;
let faculty: number;
let unitA: number;
let unitB: number;
let adminA: { id: number; token: string };
let adminFaculty: { id: number; token: string };
const ids: Record<string, number> = {};

/** An instant given as Vietnam local time. */
const vn = (local: string) => new Date(Date.parse(`${local}+07:00`));

async function member(code: string, org: number, joined: string, userType: 'student' | 'staff' = 'student') {
  const u = await t.createUser(code);
  await runQuery(t.db.update(users).set({ userType }).where(eq(users.id, u.id)));
  await runQuery(t.db.insert(organizationMembers).values({ userId: u.id, organizationId: org, joinedAt: vn(joined) }));
  ids[code] = u.id;
}

const body = (over: Record<string, unknown> = {}) => ({
  organizationId: faculty,
  name: 'Đoàn phí năm 2025',
  fromMonth: '2025-01',
  toMonth: '2025-12',
  dueDate: vnLocal(60),
  ...over,
});

beforeAll(async () => {
  t = await makeTestApp();
  school = await t.createOrg('doan_truong', 'DP-T');
  faculty = await t.createOrg('doan_co_so', 'DP-K', school, 'Đoàn khoa Kinh tế');
  unitA = await t.createOrg('chi_doan', 'DP-A', faculty, 'Chi đoàn A');
  unitB = await t.createOrg('chi_doan', 'DP-B', faculty, 'Chi đoàn B');
  const orgAdmin = (await firstRow(t.db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'org_admin'))))!.id;
  adminA = await t.createUser('DPADMA', [{ roleId: orgAdmin, organizationId: unitA }]);
  adminFaculty = await t.createUser('DPADMK', [{ roleId: orgAdmin, organizationId: faculty }]);
  await member('DPFULL', unitA, '2020-09-05T08:00:00');
  // The last minutes of March (Vietnam time) still owe March: 10 months.
  await member('DPMAR', unitA, '2025-03-31T23:30:00');
  // 00:30 on 1 April in Vietnam is still 31 March in UTC: it owes from April, 9 months.
  await member('DPAPR', unitB, '2025-04-01T00:30:00');
  await member('DPSTAFF', unitB, '2019-01-01T00:00:00', 'staff');
  // Joined after the period: nothing to pay for it.
  await member('DPLATE', unitB, '2026-01-05T10:00:00');
  // Left: not an active member any more.
  await member('DPGONE', unitA, '2020-01-01T00:00:00');
  await runQuery(t.db.update(organizationMembers).set({ isActive: false }).where(eq(organizationMembers.userId, ids.DPGONE!)));
});

describe('dues rates', () => {
  it('start from the rule (2,000 ₫ a month) and are inherited down the tree unless overridden', async () => {
    const before = await expectOk(t.request('GET', `/api/dues/rates?organizationId=${unitA}`, { token: adminA.token }));
    expect(before.rates).toContainEqual(expect.objectContaining({ memberType: 'student', monthlyAmount: 2000, source: 'default' }));
    await expectOk(
      t.request('PUT', '/api/dues/rates', {
        token: adminFaculty.token,
        body: { organizationId: faculty, rates: [{ memberType: 'staff', monthlyAmount: 5000 }] },
      }),
    );
    const inherited = await expectOk(t.request('GET', `/api/dues/rates?organizationId=${unitA}`, { token: adminA.token }));
    expect(inherited.rates).toContainEqual(
      expect.objectContaining({ memberType: 'staff', monthlyAmount: 5000, source: 'inherited', sourceOrganizationId: faculty }),
    );
    await expectOk(
      t.request('PUT', '/api/dues/rates', {
        token: adminA.token,
        body: { organizationId: unitA, rates: [{ memberType: 'staff', monthlyAmount: 3000 }] },
      }),
    );
    const own = await expectOk(t.request('GET', `/api/dues/rates?organizationId=${unitA}`, { token: adminA.token }));
    expect(own.rates).toContainEqual(expect.objectContaining({ memberType: 'staff', monthlyAmount: 3000, source: 'own' }));
    // null removes the override: inherited again.
    await expectOk(
      t.request('PUT', '/api/dues/rates', {
        token: adminA.token,
        body: { organizationId: unitA, rates: [{ memberType: 'staff', monthlyAmount: null }] },
      }),
    );
    const again = await expectOk(t.request('GET', `/api/dues/rates?organizationId=${unitA}`, { token: adminA.token }));
    expect(again.rates).toContainEqual(expect.objectContaining({ memberType: 'staff', monthlyAmount: 5000, source: 'inherited' }));
  });

  it('refuses a unit outside the caller reach, and bad amounts', async () => {
    expect(
      (
        await t.request('PUT', '/api/dues/rates', {
          token: adminA.token,
          body: { organizationId: faculty, rates: [{ memberType: 'student', monthlyAmount: 1 }] },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.request('PUT', '/api/dues/rates', {
          token: adminA.token,
          body: { organizationId: unitB, rates: [{ memberType: 'student', monthlyAmount: 1 }] },
        })
      ).status,
    ).toBe(403);
    expect((await t.request('GET', `/api/dues/rates?organizationId=${unitB}`, { token: adminA.token })).status).toBe(403);
    for (const monthlyAmount of [-1, 1.5, 'abc']) {
      const res = await t.request('PUT', '/api/dues/rates', {
        token: adminA.token,
        body: { organizationId: unitA, rates: [{ memberType: 'student', monthlyAmount }] },
      });
      expect(res.status).toBe(400);
    }
    expect(
      (
        await t.request('PUT', '/api/dues/rates', {
          token: adminA.token,
          body: { organizationId: unitA, rates: [{ memberType: 'alien', monthlyAmount: 1 }] },
        })
      ).status,
    ).toBe(400);
  });

  it('shares per organization type are a global setting, 2/3 by default', async () => {
    const shares = await expectOk(t.request('GET', '/api/dues/shares', { token: adminA.token }));
    expect(shares.shares).toContainEqual({ organizationType: 'chi_doan', keepNumerator: 2, keepDenominator: 3, isDefault: true });
    expect(
      (
        await t.request('PUT', '/api/dues/shares', {
          token: adminFaculty.token,
          body: { shares: [{ organizationType: 'chi_doan', keepNumerator: 1, keepDenominator: 2 }] },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await t.request('PUT', '/api/dues/shares', {
          token: t.adminToken,
          body: { shares: [{ organizationType: 'chi_doan', keepNumerator: 3, keepDenominator: 2 }] },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.request('PUT', '/api/dues/shares', {
          token: t.adminToken,
          body: { shares: [{ organizationType: 'chi_doan', keepNumerator: 1, keepDenominator: 0 }] },
        })
      ).status,
    ).toBe(400);
  });
});

describe('generating the year campaign', () => {
  it('previews one level per member type and months, pro-rata from the joining month (Vietnam calendar)', async () => {
    const plan = await expectOk(t.request('POST', '/api/dues/campaigns/preview', { token: adminFaculty.token, body: body() }));
    expect(plan.months).toBe(12);
    const levels = plan.levels.map((l: any) => [l.memberType, l.months, l.amount, l.count, l.proRata]);
    expect(levels).toEqual(
      expect.arrayContaining([
        ['student', 12, 24_000, 1, false],
        ['student', 10, 20_000, 1, true],
        ['student', 9, 18_000, 1, true],
        ['staff', 12, 60_000, 1, false],
      ]),
    );
    expect(plan.levels).toHaveLength(4);
    expect(plan.totalMembers).toBe(4);
    expect(plan.totalAmount).toBe(24_000 + 20_000 + 18_000 + 60_000);
    expect(plan.skippedAfterPeriod).toBe(1);
    expect(plan.examples.map((e: any) => [e.code, e.months, e.amount])).toEqual(
      expect.arrayContaining([
        ['DPMAR', 10, 20_000],
        ['DPAPR', 9, 18_000],
      ]),
    );
    // Nothing written by a preview.
    expect(await allRows(t.db.select().from(paymentCampaigns).where(eq(paymentCampaigns.organizationId, faculty)))).toHaveLength(0);
  });

  it('creates the DRAFT campaign, its levels and every assignment at once', async () => {
    const res = await expectOk(t.request('POST', '/api/dues/campaigns', { token: adminFaculty.token, body: body() }), 201);
    expect(res.campaign).toMatchObject({ status: 'DRAFT', organizationId: faculty, name: 'Đoàn phí năm 2025' });
    expect(res.assignmentsCreated).toBe(4);
    const id = res.campaign.id as number;
    const rows = await allRows(
      t.db
        .select({ userId: paymentAssignments.userId, amount: paymentAssignments.amount, level: feeLevels.levelName })
        .from(paymentAssignments)
        .innerJoin(feeLevels, eq(feeLevels.id, paymentAssignments.feeLevelId))
        .where(eq(paymentAssignments.campaignId, id)),
    );
    const byUser = new Map(rows.map((r) => [r.userId, r]));
    expect(byUser.get(ids.DPFULL!)!.amount).toBe(24_000);
    expect(byUser.get(ids.DPMAR!)).toMatchObject({ amount: 20_000, level: 'Sinh viên – 10 tháng (từ 03/2025)' });
    expect(byUser.get(ids.DPAPR!)!.amount).toBe(18_000);
    expect(byUser.get(ids.DPSTAFF!)!.amount).toBe(60_000);
    expect(byUser.has(ids.DPLATE!)).toBe(false);
    expect(byUser.has(ids.DPGONE!)).toBe(false);
    const audited = await allRows(
      t.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'dues.generate'), eq(auditLogs.entityId, String(id)))),
    );
    expect(audited).toHaveLength(1);
    // The campaign is an ordinary one: it activates through the campaign rules.
    await expectOk(t.request('POST', `/api/payment-campaigns/${id}/activate`, { token: adminFaculty.token }));
  });

  it('refuses out-of-scope units and bad periods, writing nothing', async () => {
    const before = (await allRows(t.db.select().from(paymentCampaigns))).length;
    expect((await t.request('POST', '/api/dues/campaigns/preview', { token: adminA.token, body: body() })).status).toBe(403);
    expect((await t.request('POST', '/api/dues/campaigns', { token: adminA.token, body: body({ organizationId: unitB }) })).status).toBe(
      403,
    );
    for (const over of [
      { fromMonth: '2025-13' },
      { toMonth: '2024-12' },
      { fromMonth: '2023-01', toMonth: '2025-12' },
      { name: '' },
      { name: 'Đóng tại www.evil.example/login' },
      { dueDate: '31/12/2025' },
    ]) {
      const res = await t.request('POST', '/api/dues/campaigns', { token: adminFaculty.token, body: body(over) });
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body.message).toBeTruthy();
    }
    // A unit without members to charge: 422, nothing created.
    const empty = await t.createOrg('chi_doan', 'DP-EMPTY', faculty);
    expect(
      (await t.request('POST', '/api/dues/campaigns', { token: adminFaculty.token, body: body({ organizationId: empty }) })).status,
    ).toBe(422);
    expect((await allRows(t.db.select().from(paymentCampaigns))).length).toBe(before);
  });
});
