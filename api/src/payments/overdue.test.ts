import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { campaigns, expectOk, join } from './fixture';
import { startPaymentJobs } from './jobs';
import { paymentAssignments, paymentCampaigns } from '../db/tables/payments';
import { firstRow, runQuery } from '../db/engine';
import { mapInOrder } from '../lib/in-order';

let t: TestApp;
let api: ReturnType<typeof campaigns>;
let org: number;
let n = 0;

beforeAll(async () => {
  t = await makeTestApp();
  api = campaigns(t);
  org = await t.createOrg('doan_co_so', 'OD');
});

/** An ACTIVE campaign with `count` members, whose end is then moved into the past. */
async function ended(count: number, status: 'ACTIVE' | 'CANCELLED' = 'ACTIVE') {
  const ids = [];
  for (let i = 0; i < count; i++) {
    const u = await t.createUser(`ODU${++n}`);
    await join(t, u.id, org);
    ids.push(u.id);
  }
  const { campaign, assignments } = await api.active(org, ids, { config: false });
  await runQuery(
    t.db
      .update(paymentCampaigns)
      .set({ endDate: new Date(Date.now() - 60_000), status })
      .where(eq(paymentCampaigns.id, campaign.id)),
  );
  return { campaignId: campaign.id as number, assignments: assignments as { id: number }[] };
}

const statusOf = async (id: number) =>
  (await firstRow(t.db.select().from(paymentAssignments).where(eq(paymentAssignments.id, id))))!.status;

describe('check-overdue', () => {
  it('turns PENDING assignments of ended campaigns into OVERDUE and returns updatedCount; PAID stay PAID', async () => {
    const { campaignId, assignments } = await ended(3);
    const cancelled = await ended(1, 'CANCELLED');
    const runner = await t.createUser(`ODU${++n}`);
    await join(t, runner.id, org);
    const running = await api.active(org, [runner.id], { config: false });
    await runQuery(
      t.db
        .update(paymentAssignments)
        .set({ status: 'PAID', paidAt: new Date(), paidAmount: 1, paymentMethod: 'MANUAL' })
        .where(eq(paymentAssignments.id, assignments[0]!.id)),
    );

    // Shown as overdue before the batch runs (001 §4).
    const before = await expectOk(t.request('GET', `/api/payment/assignments/${assignments[1]!.id}`, { token: t.adminToken }));
    expect(before.data).toMatchObject({ status: 'PENDING', displayStatus: 'OVERDUE' });

    const res = await expectOk(t.request('POST', '/api/payment/assignments/check-overdue', { token: t.adminToken }));
    expect(res.updatedCount).toBe(2);
    expect(res.data.updatedCount).toBe(2);
    expect(await mapInOrder(assignments, (a) => statusOf(a.id))).toEqual(['PAID', 'OVERDUE', 'OVERDUE']);
    expect(await statusOf(cancelled.assignments[0]!.id)).toBe('PENDING');
    expect(await statusOf(running.assignments[0].id)).toBe('PENDING');
    const again = await expectOk(
      t.request('POST', `/api/payment/assignments/check-overdue?campaignId=${campaignId}`, { token: t.adminToken }),
    );
    expect(again.updatedCount).toBe(0);
  });

  it('an org-scoped caller only touches campaigns where it manages assignments', async () => {
    const elsewhere = await t.createOrg('doan_co_so', 'OD-OTHER');
    const role = await t.createRole('od_manager', ['payment-campaigns.manage_assignments']);
    const officer = await t.createUser('ODOFF', [{ roleId: role, organizationId: elsewhere }]);
    const { assignments, campaignId } = await ended(1);
    expect((await expectOk(t.request('POST', '/api/payment/assignments/check-overdue', { token: officer.token }))).updatedCount).toBe(0);
    expect(await statusOf(assignments[0]!.id)).toBe('PENDING');
    expect(
      (await t.request('POST', `/api/payment/assignments/check-overdue?campaignId=${campaignId}`, { token: officer.token })).status,
    ).toBe(403);
  });

  it('runs at start and periodically from startPaymentJobs', async () => {
    const { assignments } = await ended(1);
    const stop = await startPaymentJobs({ db: t.db, env: { ...t.env, PUBLIC_URL: 'http://127.0.0.1:9' } }, 9, 20);
    expect(await statusOf(assignments[0]!.id)).toBe('OVERDUE');
    const later = await ended(1);
    // Polled, not slept: on a busy machine a 20 ms interval may take far longer than 80 ms to come round.
    await vi.waitFor(async () => expect(await statusOf(later.assignments[0]!.id)).toBe('OVERDUE'), { timeout: 10_000, interval: 25 });
    stop();
  });
});
