/**
 * Issue 25, 3b, 3d and 5b against a stand-in payOS over HTTP (PAYOS_BASE_URL):
 * - a link made under a configuration since deleted or swapped is closed at payOS first, and money
 *   still paid on it is verified with the key it was made under and recorded;
 * - every open link of a fee closes when its balance changes (underpayment, waived balance);
 *   money on a COMPLETED campaign's link is flagged as after a cancellation;
 * - the connection test proves the checksum key.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandIn, type StandIn } from '../payos-sandbox/stand-in';
import { makeTestApp, type TestApp } from '../test/harness';
import { campaigns, expectOk, join, SANDBOX_CREDS } from './fixture';
import { linksClosing } from './links';
import { paymentAssignments, paymentOrders, payosConfigs } from '../db/tables/payments';
import { firstRow } from '../db/engine';

let t: TestApp;
let payos: StandIn;
let api: ReturnType<typeof campaigns>;
let org: number;
let n = 0;
const FEE = 40_000;
const OTHER = { clientId: 'other-client-id', apiKey: 'other-api-key-0123456789', checksumKey: 'other-checksum-key-0123456789' };

beforeAll(async () => {
  payos = await startStandIn({ latencyMs: 20 });
  payos.addMerchant(SANDBOX_CREDS);
  payos.addMerchant(OTHER);
  t = await makeTestApp({ PAYOS_BASE_URL: payos.url });
  api = campaigns(t);
  org = await t.createOrg('doan_co_so', 'BAL');
});
afterAll(() => payos.close());

async function fee() {
  const u = await t.createUser(`BAL${++n}`);
  await join(t, u.id, org);
  const { campaign, assignments } = await api.active(org, [u.id], { amount: FEE });
  return { u, campaign, assignmentId: assignments[0].id as number };
}
const link = async (token: string, assignmentId: number) =>
  (await expectOk(t.request('POST', '/api/payment/create-payment-link', { token, body: { assignmentId } }))).data;
const webhook = (body: unknown) => t.request('POST', '/api/payment/webhook/payos', { body });
const order = async (orderCode: number) =>
  (await firstRow(t.db.select().from(paymentOrders).where(eq(paymentOrders.orderCode, orderCode))))!;
const assignment = async (id: number) => (await firstRow(t.db.select().from(paymentAssignments).where(eq(paymentAssignments.id, id))))!;
const configPath = (campaignId: number) => `/api/payment-campaigns/${campaignId}/payos-config`;

describe('a configuration deleted or swapped (3b)', () => {
  it('deleting closes the open link at payOS first; money still paid on it is verified with its own key and recorded', async () => {
    const { u, campaign, assignmentId } = await fee();
    const l = await link(u.token, assignmentId);
    await expectOk(t.request('DELETE', configPath(campaign.id), { token: t.adminToken }));
    expect(payos.link(l.orderCode)!.status).toBe('CANCELLED');
    expect((await order(l.orderCode)).status).toBe('CANCELLED');
    // The member had the QR open: the bank moves the money and payOS reports it.
    const res = await webhook(payos.pay(l.orderCode));
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Đã ghi nhận thanh toán');
    expect(await order(l.orderCode)).toMatchObject({ status: 'PAID', receivedAmount: FEE });
    expect(await assignment(assignmentId)).toMatchObject({ status: 'PAID', paidAmount: FEE });
  });

  it('swapping the keys closes the links made under the old ones; their webhooks still verify with the old key only', async () => {
    const { u, campaign, assignmentId } = await fee();
    const l = await link(u.token, assignmentId);
    await expectOk(t.request('PUT', configPath(campaign.id), { token: t.adminToken, body: OTHER }));
    expect(payos.link(l.orderCode)!.status).toBe('CANCELLED');
    const paid = payos.pay(l.orderCode);
    // The same payment signed with the new key is a forgery for this order.
    const { dataSignature } = await import('../payos/signature');
    expect((await webhook({ ...paid, signature: dataSignature(paid.data, OTHER.checksumKey) })).status).toBe(400);
    expect((await webhook(paid)).status).toBe(200);
    expect((await assignment(assignmentId)).status).toBe('PAID');
    // New links are made under the new configuration.
    const u2 = await t.createUser(`BAL${++n}`);
    await join(t, u2.id, org);
    const a2 = await api.assign(
      campaign.id,
      u2.id,
      (await firstRow(t.db.select().from(paymentAssignments).where(eq(paymentAssignments.id, assignmentId))))!.feeLevelId,
    );
    const l2 = await link(u2.token, a2.id);
    expect(payos.link(l2.orderCode)!.clientId).toBe(OTHER.clientId);
    expect((await webhook(payos.pay(l2.orderCode))).status).toBe(200);
  });

  it('refused with the reason when payOS cannot confirm the close; the configuration stays', async () => {
    const { u, campaign, assignmentId } = await fee();
    const l = await link(u.token, assignmentId);
    payos.removeMerchant(SANDBOX_CREDS.clientId);
    try {
      const res = await t.request('DELETE', configPath(campaign.id), { token: t.adminToken });
      expect(res.status).toBe(502);
      expect(res.body.message).toContain(String(l.orderCode));
      expect(await firstRow(t.db.select().from(payosConfigs).where(eq(payosConfigs.campaignId, campaign.id)))).toBeTruthy();
      expect((await order(l.orderCode)).status).toBe('PENDING');
    } finally {
      payos.addMerchant(SANDBOX_CREDS);
    }
  });
});

describe('links close when the balance changes (3d)', () => {
  it('after an underpayment the first link is closed at payOS; the balance is paid once on a new link', async () => {
    const { u, assignmentId } = await fee();
    const l1 = await link(u.token, assignmentId);
    expect((await webhook(payos.pay(l1.orderCode, 15_000))).status).toBe(200);
    await linksClosing();
    expect(payos.link(l1.orderCode)!.status).toBe('CANCELLED');
    expect(await order(l1.orderCode)).toMatchObject({ status: 'PAID', receivedAmount: 15_000, attention: 'BALANCE_DUE' });
    const l2 = await link(u.token, assignmentId);
    expect(l2.orderCode).not.toBe(l1.orderCode);
    expect(l2.amount).toBe(25_000);
    expect((await webhook(payos.pay(l2.orderCode))).status).toBe(200);
    expect(await assignment(assignmentId)).toMatchObject({ status: 'PAID', paidAmount: FEE });
    // Money still sent to the first link's QR is a refund, not a second balance.
    expect((await webhook(payos.pay(l1.orderCode, 25_000))).status).toBe(200);
    expect(await order(l1.orderCode)).toMatchObject({ attention: 'REFUND_DUE', attentionAmount: 25_000 });
    expect((await assignment(assignmentId)).paidAmount).toBe(FEE);
  });

  it('a waived balance closes the link opened for it', async () => {
    const { u, assignmentId } = await fee();
    const l1 = await link(u.token, assignmentId);
    await webhook(payos.pay(l1.orderCode, 15_000));
    await linksClosing();
    const l2 = await link(u.token, assignmentId);
    await expectOk(
      t.request('POST', `/api/payment-admin/orders/${(await order(l1.orderCode)).id}/resolve`, {
        token: t.adminToken,
        body: { resolution: 'ACCEPTED', note: 'Miễn phần còn lại' },
      }),
    );
    expect(payos.link(l2.orderCode)!.status).toBe('CANCELLED');
    expect((await order(l2.orderCode)).status).toBe('CANCELLED');
    expect(await assignment(assignmentId)).toMatchObject({ status: 'PAID', amount: 15_000 });
  });

  it("money on a COMPLETED campaign's closed link is flagged for a refund, as after a cancellation", async () => {
    const { u, campaign, assignmentId } = await fee();
    const l = await link(u.token, assignmentId);
    await expectOk(t.request('POST', `/api/payment-campaigns/${campaign.id}/complete`, { token: t.adminToken }));
    expect((await webhook(payos.pay(l.orderCode))).status).toBe(200);
    expect(await order(l.orderCode)).toMatchObject({
      receivedAmount: FEE,
      attention: 'REFUND_DUE',
      attentionReason: 'AFTER_CLOSE',
      attentionAmount: FEE,
    });
    expect((await assignment(assignmentId)).status).not.toBe('PAID');
  });
});

describe('the connection test proves the checksum key (5b)', () => {
  it('a wrong checksum key fails; the right one succeeds and its probe link is cancelled', async () => {
    const c = await api.create(org);
    await api.config(c.id);
    const path = `${configPath(c.id)}/test-connection`;
    const wrong = await expectOk(t.request('POST', path, { token: t.adminToken, body: { checksumKey: 'wrong-checksum-key-0000000000' } }));
    expect(wrong).toMatchObject({ success: false, data: { connected: false, reason: 'credentials' } });
    expect(wrong.message).toContain('Checksum Key');
    const before = payos.calls.length;
    const ok = await expectOk(t.request('POST', path, { token: t.adminToken, body: {} }));
    expect(ok).toMatchObject({ success: true, data: { connected: true, reason: 'ok' } });
    const probe = payos.calls.slice(before).find((c) => c.endsWith('/cancel'));
    expect(probe).toBeTruthy();
    const wrongApi = await expectOk(t.request('POST', path, { token: t.adminToken, body: { apiKey: 'wrong-api-key' } }));
    expect(wrongApi.message).toContain('API Key');
  });
});
