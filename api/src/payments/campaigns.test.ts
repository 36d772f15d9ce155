import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { makeTestApp, type TestApp } from '../test/harness';
import { campaigns, expectOk, join, vnLocal } from './fixture';
import { paymentCampaigns } from '../db/tables/payments';
import { firstRow, runQuery } from '../db/engine';

let t: TestApp;
let api: ReturnType<typeof campaigns>;
let root: number;
let faculty: number;
let member: { id: number; token: string };

beforeAll(async () => {
  t = await makeTestApp();
  api = campaigns(t);
  root = await t.createOrg('doan_truong', 'CR');
  faculty = await t.createOrg('doan_co_so', 'CR-F1', root, 'Đoàn khoa Công nghệ');
  member = await t.createUser('CRM1');
  await join(t, member.id, faculty);
});

/** A campaign moved straight into a status (the machine itself is tested through the API below). */
async function inStatus(status: 'DRAFT' | 'ACTIVE' | 'COMPLETED' | 'CANCELLED') {
  const c = await api.create(faculty);
  const level = await api.level(c.id);
  await api.assign(c.id, member.id, level.id);
  await api.config(c.id);
  await runQuery(t.db.update(paymentCampaigns).set({ status }).where(eq(paymentCampaigns.id, c.id)));
  return c.id as number;
}

describe('POST /api/payment-campaigns', () => {
  it('creates a DRAFT campaign; zone-less dates are Vietnam time and come back as ISO instants', async () => {
    const res = await t.request('POST', '/api/payment-campaigns', {
      token: t.adminToken,
      body: {
        organizationId: faculty,
        name: '  Đoàn phí 2027 ',
        description: 'Thu đoàn phí',
        startDate: '2026-12-01T00:00:00',
        endDate: '2026-12-31T23:59:00',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Đoàn phí 2027',
      status: 'DRAFT',
      startDate: '2026-11-30T17:00:00.000Z',
      endDate: '2026-12-31T16:59:00.000Z',
      organization: { id: faculty, name: 'Đoàn khoa Công nghệ' },
      createdByUser: { email: 'admin@doanhoi.local' },
      feeLevels: [],
      feeLevelCount: 0,
      assignmentCount: 0,
    });
    expect(res.body.searchText).toBeUndefined();
    const logged = await firstRow(
      t.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'campaign.create'), eq(auditLogs.entityId, String(res.body.id)))),
    );
    expect(logged?.actorId).not.toBeNull();
  });

  it('checks the form rules of 001 §5 with their messages', async () => {
    const ok = { organizationId: faculty, name: 'Đợt', startDate: vnLocal(1), endDate: vnLocal(2) };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...ok, organizationId: undefined }, 'Vui lòng chọn tổ chức'],
      [{ ...ok, name: '   ' }, 'Vui lòng nhập tên'],
      [{ ...ok, startDate: undefined }, 'Vui lòng chọn ngày bắt đầu'],
      [{ ...ok, endDate: '' }, 'Vui lòng chọn ngày kết thúc'],
      [{ ...ok, endDate: ok.startDate }, 'Thời gian kết thúc phải sau thời gian bắt đầu'],
      [{ ...ok, startDate: '2026-02-30T00:00:00' }, 'Ngày giờ không hợp lệ'],
    ];
    for (const [body, message] of cases) {
      const res = await t.request('POST', '/api/payment-campaigns', { token: t.adminToken, body });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
    }
    const unknownOrg = await t.request('POST', '/api/payment-campaigns', { token: t.adminToken, body: { ...ok, organizationId: 999999 } });
    expect(unknownOrg.status).toBe(400);
  });
});

describe('GET /api/payment-campaigns', () => {
  it('pages, searches without accents, filters by status, organization and overlapping dates', async () => {
    const other = await t.createOrg('doan_co_so', 'CR-F2', root);
    const a = await api.create(other, { name: 'Quỹ Mùa hè xanh', startDate: vnLocal(100), endDate: vnLocal(110) });
    await api.create(other, { name: 'Đoàn phí khác', startDate: vnLocal(200), endDate: vnLocal(210) });
    const list = await expectOk(t.request('GET', `/api/payment-campaigns?organizationId=${other}&limit=1`, { token: t.adminToken }));
    expect(list).toMatchObject({ page: 1, limit: 1, total: 2, totalPages: 2 });
    expect(list.campaigns).toHaveLength(1);
    const found = await expectOk(t.request('GET', '/api/payment-campaigns?search=mua he xanh', { token: t.adminToken }));
    expect(found.campaigns.map((c: { id: number }) => c.id)).toEqual([a.id]);
    const byDate = await expectOk(
      t.request(
        'GET',
        `/api/payment-campaigns?organizationId=${other}&startDate=${vnLocal(105).slice(0, 10)}&endDate=${vnLocal(150).slice(0, 10)}`,
        { token: t.adminToken },
      ),
    );
    expect(byDate.campaigns.map((c: { id: number }) => c.id)).toEqual([a.id]);
    const active = await expectOk(
      t.request('GET', `/api/payment-campaigns?organizationId=${other}&status=ACTIVE`, { token: t.adminToken }),
    );
    expect(active.total).toBe(0);
    expect((await t.request('GET', '/api/payment-campaigns?status=OPEN', { token: t.adminToken })).status).toBe(400);
  });

  it('GET /:id returns fee levels by orderIndex; unknown id → 404', async () => {
    const c = await api.create(faculty);
    await api.level(c.id, 20_000, 'B');
    await api.level(c.id, 10_000, 'A');
    const got = await expectOk(t.request('GET', `/api/payment-campaigns/${c.id}`, { token: t.adminToken }));
    expect(
      got.feeLevels.map((l: { levelName: string; orderIndex: number; isDefault: boolean }) => [l.levelName, l.orderIndex, l.isDefault]),
    ).toEqual([
      ['B', 0, true],
      ['A', 1, false],
    ]);
    expect((await t.request('GET', '/api/payment-campaigns/999999', { token: t.adminToken })).status).toBe(404);
  });
});

describe('campaign status machine (001 §4)', () => {
  const actions = ['activate', 'complete', 'cancel'] as const;
  const legal: Record<string, string> = { 'DRAFT:activate': 'ACTIVE', 'ACTIVE:complete': 'COMPLETED', 'ACTIVE:cancel': 'CANCELLED' };
  for (const from of ['DRAFT', 'ACTIVE', 'COMPLETED', 'CANCELLED'] as const) {
    for (const action of actions) {
      const to = legal[`${from}:${action}`];
      it(`${from} --${action}--> ${to ?? '409'}`, async () => {
        const id = await inStatus(from);
        const res = await t.request('POST', `/api/payment-campaigns/${id}/${action}`, { token: t.adminToken });
        if (to) {
          expect(res.status).toBe(200);
          expect(res.body).toMatchObject({ id, status: to });
        } else {
          expect(res.status).toBe(409);
          expect(res.body.message).toContain('Không thể chuyển đợt thu');
          expect((await firstRow(t.db.select().from(paymentCampaigns).where(eq(paymentCampaigns.id, id))))!.status).toBe(from);
        }
      });
    }
  }

  it('activation needs a fee level, an assigned member and an end in the future; the message lists what is missing', async () => {
    const c = await api.create(faculty);
    let res = await t.request('POST', `/api/payment-campaigns/${c.id}/activate`, { token: t.adminToken });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Không thể kích hoạt đợt thu: chưa có mức phí nào, chưa có thành viên nào được phân công');
    expect(res.body.missing).toEqual(['feeLevels', 'assignments']);
    const level = await api.level(c.id);
    await api.assign(c.id, member.id, level.id);
    await runQuery(
      t.db
        .update(paymentCampaigns)
        .set({ startDate: new Date(Date.now() - 7 * 86_400_000), endDate: new Date(Date.now() - 60_000) })
        .where(eq(paymentCampaigns.id, c.id)),
    );
    res = await t.request('POST', `/api/payment-campaigns/${c.id}/activate`, { token: t.adminToken });
    expect(res.status).toBe(422);
    expect(res.body.missing).toEqual(['endDate']);
    await runQuery(
      t.db
        .update(paymentCampaigns)
        .set({ endDate: new Date(Date.now() + 86_400_000) })
        .where(eq(paymentCampaigns.id, c.id)),
    );
    expect((await api.activate(c.id)).status).toBe('ACTIVE');
  });

  it('a campaign without payOS (cash collection) activates; its member is told to pay the treasurer of the unit, and mark-paid settles the fee (issue 25.3)', async () => {
    const c = await api.create(faculty);
    const level = await api.level(c.id, 60_000);
    const assigned = await api.assign(c.id, member.id, level.id);
    expect((await api.activate(c.id)).status).toBe('ACTIVE');
    const mine = await expectOk(t.request('GET', '/api/payment/assignments/my-assignments', { token: member.token }));
    const fee = mine.data.assignments.find((a: { campaignId: number }) => a.campaignId === c.id);
    expect(fee).toMatchObject({
      status: 'PENDING',
      canPay: false,
      cannotPayReason: 'NO_ONLINE_PAYMENT',
      remainingAmount: 60_000,
      campaign: { organization: { id: faculty, name: 'Đoàn khoa Công nghệ' } },
    });
    const link = await t.request('POST', '/api/payment/create-payment-link', { token: member.token, body: { assignmentId: assigned.id } });
    expect(link.status).toBe(409);
    // An inactive configuration is the same as none.
    await api.config(c.id);
    await expectOk(t.request('POST', `/api/payment-campaigns/${c.id}/payos-config/toggle-active`, { token: t.adminToken }));
    const again = await expectOk(t.request('GET', '/api/payment/assignments/my-assignments', { token: member.token }));
    expect(again.data.assignments.find((a: { campaignId: number }) => a.campaignId === c.id)).toMatchObject({
      canPay: false,
      cannotPayReason: 'NO_ONLINE_PAYMENT',
    });
    await expectOk(
      t.request('PATCH', `/api/payment/assignments/${assigned.id}/mark-paid`, { token: t.adminToken, body: { method: 'cash' } }),
    );
    const paid = await expectOk(t.request('GET', '/api/payment/assignments/my-assignments', { token: member.token }));
    expect(paid.data.assignments.find((a: { campaignId: number }) => a.campaignId === c.id)).toMatchObject({
      status: 'PAID',
      canPay: false,
      cannotPayReason: 'NOTHING_DUE',
    });
  });

  it('only DRAFT campaigns can be edited; the organization cannot change; dates stay ordered', async () => {
    const c = await api.create(faculty);
    const ok = await expectOk(
      t.request('PATCH', `/api/payment-campaigns/${c.id}`, {
        token: t.adminToken,
        body: { name: 'Tên mới', endDate: '2027-01-31T23:59:00' },
      }),
    );
    expect(ok).toMatchObject({ name: 'Tên mới', endDate: '2027-01-31T16:59:00.000Z' });
    const before = await t.request('PATCH', `/api/payment-campaigns/${c.id}`, { token: t.adminToken, body: { endDate: vnLocal(-5) } });
    expect(before.status).toBe(400);
    expect(before.body.message).toContain('Thời gian kết thúc phải sau thời gian bắt đầu');
    expect(
      (await t.request('PATCH', `/api/payment-campaigns/${c.id}`, { token: t.adminToken, body: { organizationId: root } })).status,
    ).toBe(400);
    const active = await inStatus('ACTIVE');
    const res = await t.request('PATCH', `/api/payment-campaigns/${active}`, { token: t.adminToken, body: { name: 'x' } });
    expect(res.status).toBe(409);
  });

  it('deletes COMPLETED and CANCELLED campaigns only, with everything they hold', async () => {
    for (const s of ['DRAFT', 'ACTIVE'] as const) {
      const id = await inStatus(s);
      expect((await t.request('DELETE', `/api/payment-campaigns/${id}`, { token: t.adminToken })).status).toBe(409);
    }
    for (const s of ['COMPLETED', 'CANCELLED'] as const) {
      const id = await inStatus(s);
      expect((await t.request('DELETE', `/api/payment-campaigns/${id}`, { token: t.adminToken })).status).toBe(200);
      expect((await t.request('GET', `/api/payment-campaigns/${id}`, { token: t.adminToken })).status).toBe(404);
    }
  });
});

describe('finished campaigns are read-only (001 §4)', () => {
  for (const status of ['COMPLETED', 'CANCELLED'] as const) {
    it(`${status}: fee levels, assignments and payOS config refuse every write with 409`, async () => {
      const c = await api.create(faculty);
      const level = await api.level(c.id);
      const a = await api.assign(c.id, member.id, level.id);
      await api.config(c.id);
      const other = await t.createUser(`CRRO${status}`);
      await join(t, other.id, faculty);
      await runQuery(t.db.update(paymentCampaigns).set({ status }).where(eq(paymentCampaigns.id, c.id)));
      const calls: [string, string, unknown?][] = [
        ['POST', '/api/payment-fee-levels', { campaignId: c.id, levelName: 'Mới', amount: 1000 }],
        ['PATCH', `/api/payment-fee-levels/${level.id}`, { amount: 1000 }],
        ['POST', `/api/payment-fee-levels/${level.id}/set-default`],
        ['DELETE', `/api/payment-fee-levels/${level.id}`],
        ['POST', '/api/payment/assignments', { campaignId: c.id, userId: other.id, feeLevelId: level.id }],
        ['POST', '/api/payment/assignments/bulk', { assignments: [{ campaignId: c.id, userId: other.id, feeLevelId: level.id }] }],
        ['PATCH', `/api/payment/assignments/${a.id}`, { notes: 'x' }],
        ['PATCH', `/api/payment/assignments/${a.id}/mark-paid`, { method: 'cash' }],
        ['PATCH', `/api/payment/assignments/${a.id}/mark-overdue`],
        ['DELETE', `/api/payment/assignments/${a.id}`],
        ['PUT', `/api/payment-campaigns/${c.id}/payos-config`, { isActive: false }],
        ['POST', `/api/payment-campaigns/${c.id}/payos-config/toggle-active`],
        ['DELETE', `/api/payment-campaigns/${c.id}/payos-config`],
      ];
      for (const [method, path, body] of calls) {
        const res = await t.request(method, path, { token: t.adminToken, body });
        expect({ path, method, status: res.status }).toEqual({ path, method, status: 409 });
      }
      // Reading still works.
      expect((await t.request('GET', `/api/payment-fee-levels/campaign/${c.id}`, { token: t.adminToken })).status).toBe(200);
    });
  }
});

describe('statistics and accessible organizations', () => {
  it('counts members, collected and uncollected amounts and the percentage', async () => {
    const c = await api.create(faculty);
    const big = await api.level(c.id, 60_000);
    const small = await api.level(c.id, 30_000);
    const users = [member];
    for (let i = 0; i < 2; i++) {
      const u = await t.createUser(`CRST${i}`);
      await join(t, u.id, faculty);
      users.push(u);
    }
    const a0 = await api.assign(c.id, users[0]!.id, big.id);
    await api.assign(c.id, users[1]!.id, big.id);
    const a2 = await api.assign(c.id, users[2]!.id, small.id);
    await expectOk(t.request('PATCH', `/api/payment/assignments/${a0.id}/mark-paid`, { token: t.adminToken, body: { method: 'cash' } }));
    await expectOk(t.request('PATCH', `/api/payment/assignments/${a2.id}/mark-overdue`, { token: t.adminToken }));
    const s = await expectOk(t.request('GET', `/api/payment-campaigns/${c.id}/statistics`, { token: t.adminToken }));
    expect(s).toMatchObject({
      totalMembers: 3,
      paidCount: 1,
      pendingCount: 1,
      overdueCount: 1,
      totalExpected: 150_000,
      collected: 60_000,
      uncollected: 90_000,
      collectionPercentage: 40,
    });
    expect(s.byFeeLevel.map((l: { count: number; paidCount: number }) => [l.count, l.paidCount])).toEqual([
      [2, 1],
      [1, 0],
    ]);
  });

  it('lists where payment-campaigns.create is held and beneath (all for a super admin)', async () => {
    const role = await t.createRole('cr_creator', ['payment-campaigns.create']);
    const chiDoan = await t.createOrg('chi_doan', 'CR-F1-C1', faculty);
    const u = await t.createUser('CRCREATE', [{ roleId: role, organizationId: faculty }]);
    const mine = await expectOk(t.request('GET', '/api/payment-campaigns/accessible-organizations', { token: u.token }));
    expect(mine.data.map((o: { id: number }) => o.id).sort()).toEqual([faculty, chiDoan].sort());
    const all = await expectOk(t.request('GET', '/api/payment-campaigns/accessible-organizations', { token: t.adminToken }));
    expect(all.data.map((o: { id: number }) => o.id)).toContain(root);
    expect(all.data[0]).toHaveProperty('displayName');
  });
});
