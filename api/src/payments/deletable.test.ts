/**
 * Issue 25 item 6: the list and detail answers say whether DELETE would be accepted, and DELETE
 * agrees with them (a campaign's money records, an organization's campaigns).
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { campaigns, expectOk, join } from './fixture';
import { paymentCampaigns } from '../db/tables/payments';
import { runQuery } from '../db/engine';

let t: TestApp;
let api: ReturnType<typeof campaigns>;
let faculty: number;
let member: { id: number; token: string };

beforeAll(async () => {
  t = await makeTestApp();
  api = campaigns(t);
  const root = await t.createOrg('doan_truong', 'DL');
  faculty = await t.createOrg('doan_co_so', 'DL-F1', root, 'Đoàn khoa Xóa');
  member = await t.createUser('DLM1');
  await join(t, member.id, faculty);
});

const finish = async (id: number, status: 'COMPLETED' | 'CANCELLED') =>
  await runQuery(t.db.update(paymentCampaigns).set({ status }).where(eq(paymentCampaigns.id, id)));
const listed = async (id: number) => {
  const list = await expectOk(t.request('GET', `/api/payment-campaigns?organizationId=${faculty}&limit=100`, { token: t.adminToken }));
  return (list.campaigns as { id: number }[]).find((c) => c.id === id) as Record<string, unknown>;
};

describe('campaign canDelete', () => {
  it('a running campaign says NOT_FINISHED, in the list and on its page, and DELETE refuses', async () => {
    const { campaign } = await api.active(faculty, [member.id]);
    expect(await listed(campaign.id)).toMatchObject({ canDelete: false, deleteBlockedReason: 'NOT_FINISHED', paymentCount: 0 });
    const page = await expectOk(t.request('GET', `/api/payment-campaigns/${campaign.id}`, { token: t.adminToken }));
    expect(page).toMatchObject({ canDelete: false, deleteBlockedReason: 'NOT_FINISHED' });
    expect((await t.request('DELETE', `/api/payment-campaigns/${campaign.id}`, { token: t.adminToken })).status).toBe(409);
  });

  it('a finished campaign holding a payment says HAS_PAYMENTS with the count, and DELETE refuses with the reason', async () => {
    const { campaign, assignments } = await api.active(faculty, [member.id]);
    await expectOk(
      t.request('PATCH', `/api/payment/assignments/${assignments[0].id}/mark-paid`, { token: t.adminToken, body: { method: 'cash' } }),
    );
    await finish(campaign.id, 'COMPLETED');
    expect(await listed(campaign.id)).toMatchObject({ canDelete: false, deleteBlockedReason: 'HAS_PAYMENTS', paymentCount: 1 });
    const del = await t.request('DELETE', `/api/payment-campaigns/${campaign.id}`, { token: t.adminToken });
    expect(del.status).toBe(409);
    expect(del.body.message).toContain('đã có 1 khoản thanh toán');
  });

  it('a finished campaign without money says canDelete, and DELETE accepts', async () => {
    const { campaign } = await api.active(faculty, [member.id]);
    await finish(campaign.id, 'CANCELLED');
    expect(await listed(campaign.id)).toMatchObject({ canDelete: true, deleteBlockedReason: null, paymentCount: 0 });
    expect((await t.request('DELETE', `/api/payment-campaigns/${campaign.id}`, { token: t.adminToken })).status).toBe(200);
  });
});

describe('organization campaignCount', () => {
  it('the detail counts the campaigns that make DELETE refuse', async () => {
    const unit = await t.createOrg('chi_doan', 'DL-CD1', faculty, 'Chi đoàn Xóa');
    const empty = await expectOk(t.request('GET', `/api/organizations/${unit}`, { token: t.adminToken }));
    expect(empty).toMatchObject({ campaignCount: 0, memberCount: 0, hasChildren: false });
    await api.create(unit);
    expect(await expectOk(t.request('GET', `/api/organizations/${unit}`, { token: t.adminToken }))).toMatchObject({ campaignCount: 1 });
    const del = await t.request('DELETE', `/api/organizations/${unit}`, { token: t.adminToken });
    expect(del.status).toBe(409);
    expect(del.body.message).toBe('Không thể xóa tổ chức còn 1 đợt thu phí');
  });
});
