/**
 * Issue 11 items 1–6 through the API and the embedded sandbox over HTTP: one payable link, links
 * closed when a fee can no longer be paid online, money that arrives anyway recorded and flagged,
 * statistics that add up, money records never deleted, input rules.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payosClient } from '../payos/client';
import { dataSignature } from '../payos/signature';
import type { TestApp } from '../test/harness';
import { expireStaleOrders } from './expiry';
import { expectOk, join, sandboxApp, SANDBOX_CREDS, type campaigns, type LiveServer } from './fixture';
import { paymentAssignments, paymentOrders } from '../db/tables/payments';
import { pressCheckout } from '../payos-sandbox/fixture';
import { allRows, firstRow, runQuery } from '../db/engine';
import { isUniqueViolation } from '../db/sqlite';

let t: TestApp;
let api: ReturnType<typeof campaigns>;
let server: LiveServer;
let org: number;
let n = 0;

beforeAll(async () => {
  ({ t, server, api, org } = await sandboxApp('MN', { PAYOS_SANDBOX_WEBHOOK_DELAY_MS: '50' }));
});
afterAll(() => server.close());

async function ready(amount = 100_000) {
  const u = await t.createUser(`MNU${++n}`);
  await join(t, u.id, org);
  const { campaign, assignments, level } = await api.active(org, [u.id], { amount });
  return { u, campaign, level, assignmentId: assignments[0].id as number };
}

const link = async (token: string, assignmentId: number) =>
  (await expectOk(t.request('POST', '/api/payment/create-payment-link', { token, body: { assignmentId } }))).data;
const order = async (orderCode: number) =>
  (await firstRow(t.db.select().from(paymentOrders).where(eq(paymentOrders.orderCode, orderCode))))!;
const ordersOf = async (assignmentId: number) =>
  await allRows(t.db.select().from(paymentOrders).where(eq(paymentOrders.assignmentId, assignmentId)));
const assignment = async (id: number) => (await firstRow(t.db.select().from(paymentAssignments).where(eq(paymentAssignments.id, id))))!;
const stats = async (campaignId: number) =>
  expectOk(t.request('GET', `/api/payment-campaigns/${campaignId}/statistics`, { token: t.adminToken }));
const sandbox = () => payosClient({ ...SANDBOX_CREDS, baseUrl: `${server.url}/sandbox/payos` });
const pay = (linkId: string, mode?: 'under' | 'again') => pressCheckout(t, server.url, linkId, { mode });

async function eventually(ok: () => Promise<boolean>, ms = 5_000) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Statistics count real money only: this order stands for one made at the real payOS. */
const real = async (orderCode: number) =>
  await runQuery(t.db.update(paymentOrders).set({ isTest: false }).where(eq(paymentOrders.orderCode, orderCode)));

/** A correctly signed payOS webhook for this order: money that arrived at the bank. */
async function webhook(orderCode: number, amount: number, reference = `FT${orderCode}${++n}`) {
  const o = await order(orderCode);
  const data = {
    orderCode,
    amount,
    description: 'DH',
    accountNumber: '1',
    reference,
    transactionDateTime: '2026-11-23 10:00:00',
    currency: 'VND',
    paymentLinkId: o.paymentLinkId,
    code: '00',
    desc: 'success',
  };
  return t.request('POST', '/api/payment/webhook/payos', {
    body: { code: '00', desc: 'success', data, signature: dataSignature(data, SANDBOX_CREDS.checksumKey) },
  });
}

describe('one payable link per assignment (11.1)', () => {
  it('parallel create-link calls hand out one link; the database refuses a second open order', async () => {
    const { u, assignmentId } = await ready();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => t.request('POST', '/api/payment/create-payment-link', { token: u.token, body: { assignmentId } })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.body.data.orderCode)).size).toBe(1);
    expect((await ordersOf(assignmentId)).filter((o) => o.status === 'PENDING')).toHaveLength(1);
    const open = (await ordersOf(assignmentId))[0]!;
    await expect(runQuery(t.db.insert(paymentOrders).values({ ...open, id: undefined, orderCode: open.orderCode + 1 }))).rejects.toSatisfy(
      isUniqueViolation,
    );
  });
});

describe('links close when the fee can no longer be paid online (11.2)', () => {
  it('mark-paid cancels the open link at payOS and here', async () => {
    const { u, assignmentId } = await ready();
    const l = await link(u.token, assignmentId);
    await expectOk(
      t.request('PATCH', `/api/payment/assignments/${assignmentId}/mark-paid`, { token: t.adminToken, body: { method: 'cash' } }),
    );
    expect((await order(l.orderCode)).status).toBe('CANCELLED');
    expect((await sandbox().getPaymentLink(l.orderCode)).status).toBe('CANCELLED');
  });

  it('completing or cancelling the campaign cancels its links at payOS; new links are refused', async () => {
    for (const action of ['complete', 'cancel']) {
      const { u, assignmentId, campaign } = await ready();
      const l = await link(u.token, assignmentId);
      await expectOk(t.request('POST', `/api/payment-campaigns/${campaign.id}/${action}`, { token: t.adminToken }));
      expect((await order(l.orderCode)).status).toBe('CANCELLED');
      expect((await sandbox().getPaymentLink(l.orderCode)).status).toBe('CANCELLED');
      expect((await t.request('POST', '/api/payment/create-payment-link', { token: u.token, body: { assignmentId } })).status).toBe(409);
    }
  });

  it('removing the assignment cancels its link at payOS first', async () => {
    const { u, assignmentId } = await ready();
    const l = await link(u.token, assignmentId);
    await expectOk(t.request('DELETE', `/api/payment/assignments/${assignmentId}`, { token: t.adminToken }));
    expect((await sandbox().getPaymentLink(l.orderCode)).status).toBe('CANCELLED');
  });

  it('a new fee amount moves unpaid assignments, closes their links, and the next link charges the new amount', async () => {
    const { u, assignmentId, level } = await ready(100_000);
    const l = await link(u.token, assignmentId);
    await expectOk(t.request('PATCH', `/api/payment-fee-levels/${level.id}`, { token: t.adminToken, body: { amount: 120_000 } }));
    expect((await sandbox().getPaymentLink(l.orderCode)).status).toBe('CANCELLED');
    expect((await assignment(assignmentId)).amount).toBe(120_000);
    const again = await link(u.token, assignmentId);
    expect(again.orderCode).not.toBe(l.orderCode);
    expect(again.amount).toBe(120_000);
  });
});

describe('money that arrives anyway is never dropped (11.3) and the figures add up (11.4)', () => {
  it('a second transfer on a paid order is recorded as refund due; REFUNDED resolves it', async () => {
    const { u, assignmentId, campaign } = await ready(100_000);
    const l = await link(u.token, assignmentId);
    await pay(l.paymentLinkId);
    await eventually(async () => (await order(l.orderCode)).receivedAmount === 100_000);
    await pay(l.paymentLinkId, 'again');
    await eventually(async () => (await order(l.orderCode)).receivedAmount === 200_000);
    expect(await order(l.orderCode)).toMatchObject({
      status: 'PAID',
      attention: 'REFUND_DUE',
      attentionReason: 'DUPLICATE',
      attentionAmount: 100_000,
      isTest: true,
    });
    expect(await assignment(assignmentId)).toMatchObject({ status: 'PAID', paidAmount: 100_000 });
    // Sandbox money is test money: statistics keep it apart.
    expect(await stats(campaign.id)).toMatchObject({
      collected: 0,
      refundDue: 0,
      attentionCount: 0,
      testReceived: 200_000,
      testPaidCount: 1,
    });
    // ...but its flag is on screen for a sandbox walk (issue 11's done-criterion).
    expect(await stats(campaign.id)).toMatchObject({ testRefundDue: 100_000, testAttentionCount: 1 });

    const history = await expectOk(
      t.request('GET', `/api/payment-admin/payment-history/${campaign.id}?status=ALL&attention=OPEN`, { token: t.adminToken }),
    );
    expect(history.data.items).toHaveLength(1);
    expect(history.data.items[0]).toMatchObject({
      received_amount: 200_000,
      attention: 'REFUND_DUE',
      attention_amount: 100_000,
      is_test: true,
    });
    // Only someone who manages the campaign's assignments may resolve it; the payer may not.
    expect(
      (
        await t.request('POST', `/api/payment-admin/orders/${(await order(l.orderCode)).id}/resolve`, {
          token: u.token,
          body: { resolution: 'ACCEPTED' },
        })
      ).status,
    ).toBe(403);
    expect(
      (await t.request('POST', `/api/payment-admin/orders/999999/resolve`, { token: t.adminToken, body: { resolution: 'REFUNDED' } }))
        .status,
    ).toBe(404);
    const resolved = await expectOk(
      t.request('POST', `/api/payment-admin/orders/${(await order(l.orderCode)).id}/resolve`, {
        token: t.adminToken,
        body: { resolution: 'REFUNDED', note: 'Đã chuyển trả' },
      }),
    );
    expect(resolved.data).toMatchObject({ resolution: 'REFUNDED', resolutionNote: 'Đã chuyển trả' });
    expect(await stats(campaign.id)).toMatchObject({ testRefundDue: 0, testAttentionCount: 0, testReceived: 200_000 });
    expect(
      (
        await t.request('POST', `/api/payment-admin/orders/${(await order(l.orderCode)).id}/resolve`, {
          token: t.adminToken,
          body: { resolution: 'REFUNDED' },
        })
      ).status,
    ).toBe(409);
  });

  it('a payment after mark-paid, after a campaign cancel and an overpayment are recorded with their real amounts and flagged', async () => {
    const cash = await ready(100_000);
    const l1 = await link(cash.u.token, cash.assignmentId);
    await expectOk(t.request('PATCH', `/api/payment/assignments/${cash.assignmentId}/mark-paid`, { token: t.adminToken }));
    expect((await webhook(l1.orderCode, 100_000)).status).toBe(200);
    expect(await order(l1.orderCode)).toMatchObject({
      status: 'PAID',
      receivedAmount: 100_000,
      attention: 'REFUND_DUE',
      attentionReason: 'DUPLICATE',
      attentionAmount: 100_000,
    });
    expect(await assignment(cash.assignmentId)).toMatchObject({ status: 'PAID', paidAmount: 100_000, paymentMethod: 'MANUAL' });

    const cancelled = await ready(100_000);
    const l2 = await link(cancelled.u.token, cancelled.assignmentId);
    await expectOk(t.request('POST', `/api/payment-campaigns/${cancelled.campaign.id}/cancel`, { token: t.adminToken }));
    expect((await webhook(l2.orderCode, 100_000)).status).toBe(200);
    expect(await order(l2.orderCode)).toMatchObject({
      status: 'PAID',
      receivedAmount: 100_000,
      attention: 'REFUND_DUE',
      attentionReason: 'AFTER_CLOSE',
    });
    expect((await assignment(cancelled.assignmentId)).status).toBe('PENDING');

    const over = await ready(100_000);
    const l3 = await link(over.u.token, over.assignmentId);
    await real(l3.orderCode);
    expect((await webhook(l3.orderCode, 150_000)).status).toBe(200);
    expect(await order(l3.orderCode)).toMatchObject({ attention: 'REFUND_DUE', attentionReason: 'OVERPAID', attentionAmount: 50_000 });
    expect(await assignment(over.assignmentId)).toMatchObject({ status: 'PAID', paidAmount: 100_000 });
    let s = await stats(over.campaign.id);
    expect(s).toMatchObject({
      totalExpected: 100_000,
      collected: 100_000,
      uncollected: 0,
      refundDue: 50_000,
      refundDueCount: 1,
      attentionCount: 1,
      totalReceived: 150_000,
    });
    // Kept: the excess becomes extra money received, still accounted for.
    await expectOk(
      t.request('POST', `/api/payment-admin/orders/${(await order(l3.orderCode)).id}/resolve`, {
        token: t.adminToken,
        body: { resolution: 'ACCEPTED' },
      }),
    );
    s = await stats(over.campaign.id);
    expect(s).toMatchObject({
      collected: 100_000,
      uncollected: 0,
      refundDue: 0,
      extraReceived: 50_000,
      totalReceived: 150_000,
      attentionCount: 0,
    });
  });

  it('an underpayment leaves a balance the member can pay; it is never expired silently', async () => {
    const { u, assignmentId, campaign } = await ready(100_000);
    const l = await link(u.token, assignmentId);
    expect((await pay(l.paymentLinkId, 'under')).status).toBe(303);
    // The status check learns it from payOS (UNDERPAID) before the webhook.
    const checked = await expectOk(t.request('GET', `/api/payment/check-status/${l.orderCode}`, { token: u.token }));
    expect(checked.data).toMatchObject({
      status: 'PAID',
      receivedAmount: 50_000,
      attention: 'BALANCE_DUE',
      attentionReason: 'UNDERPAID',
      attentionAmount: 50_000,
    });
    const mine = await expectOk(t.request('GET', `/api/payment/assignments/${assignmentId}`, { token: u.token }));
    expect(mine.data).toMatchObject({
      status: 'PENDING',
      amount: 100_000,
      paidAmount: 50_000,
      remainingAmount: 50_000,
      canPay: true,
      attention: 'BALANCE_DUE',
    });
    expect(await stats(campaign.id)).toMatchObject({ balanceDue: 0, testReceived: 50_000 });

    await expireStaleOrders({ db: t.db, env: t.env }, `${server.url}/sandbox/payos`, Date.now() + 3 * 86_400_000);
    expect(await order(l.orderCode)).toMatchObject({ status: 'PAID', attention: 'BALANCE_DUE', resolution: null });

    const rest = await link(u.token, assignmentId);
    expect(rest.amount).toBe(50_000);
    await pay(rest.paymentLinkId);
    await eventually(async () => (await assignment(assignmentId)).status === 'PAID');
    expect((await assignment(assignmentId)).paidAmount).toBe(100_000);
    expect((await order(l.orderCode)).resolution).toBe('SETTLED');
  });

  it('statistics reconcile: a paid fee keeps its amount when its level is raised; expected − collected = uncollected', async () => {
    const a = await t.createUser(`MNU${++n}`);
    const b = await t.createUser(`MNU${++n}`);
    await join(t, a.id, org);
    await join(t, b.id, org);
    const { campaign, level, assignments } = await api.active(org, [a.id, b.id], { amount: 100_000 });
    const la = await link(a.token, assignments[0].id);
    await real(la.orderCode);
    await webhook(la.orderCode, 100_000);
    await expectOk(t.request('PATCH', `/api/payment-fee-levels/${level.id}`, { token: t.adminToken, body: { amount: 120_000 } }));
    expect(await assignment(assignments[0].id)).toMatchObject({ status: 'PAID', amount: 100_000 });
    expect(await assignment(assignments[1].id)).toMatchObject({ status: 'PENDING', amount: 120_000 });
    expect(await stats(campaign.id)).toMatchObject({
      totalExpected: 220_000,
      collected: 100_000,
      uncollected: 120_000,
      totalReceived: 100_000,
      testReceived: 0,
    });
  });

  it('an underpaid balance can be waived (ACCEPTED): the fee is PAID for what was received and the figures still add up', async () => {
    const { u, assignmentId } = await ready(100_000);
    const l = await link(u.token, assignmentId);
    await webhook(l.orderCode, 70_000);
    expect(await assignment(assignmentId)).toMatchObject({ status: 'PENDING', paidAmount: 70_000 });
    const open = await link(u.token, assignmentId);
    await expectOk(
      t.request('POST', `/api/payment-admin/orders/${(await order(l.orderCode)).id}/resolve`, {
        token: t.adminToken,
        body: { resolution: 'ACCEPTED', note: 'Miễn giảm' },
      }),
    );
    expect(await assignment(assignmentId)).toMatchObject({ status: 'PAID', amount: 70_000, paidAmount: 70_000 });
    expect((await order(open.orderCode)).status).toBe('CANCELLED');
    expect(
      (
        await t.request('POST', `/api/payment-admin/orders/${(await order(l.orderCode)).id}/resolve`, {
          token: t.adminToken,
          body: { resolution: 'REFUNDED' },
        })
      ).status,
    ).toBe(409);
  });
});

describe('money records are kept (11.5) and input rules (11.6)', () => {
  it('a finished campaign with money records cannot be deleted (409 with the reason); one without can', async () => {
    const { assignmentId, campaign } = await ready();
    await expectOk(t.request('PATCH', `/api/payment/assignments/${assignmentId}/mark-paid`, { token: t.adminToken }));
    await expectOk(t.request('POST', `/api/payment-campaigns/${campaign.id}/complete`, { token: t.adminToken }));
    const res = await t.request('DELETE', `/api/payment-campaigns/${campaign.id}`, { token: t.adminToken });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('đã có 1 khoản thanh toán');
    const empty = await ready();
    await expectOk(t.request('POST', `/api/payment-campaigns/${empty.campaign.id}/cancel`, { token: t.adminToken }));
    expect((await t.request('DELETE', `/api/payment-campaigns/${empty.campaign.id}`, { token: t.adminToken })).status).toBe(200);
  });

  it('a fee amount of 0 or below is 400; a masked key is never saved', async () => {
    const c = await api.create(org);
    for (const amount of [0, -5]) {
      expect(
        (await t.request('POST', '/api/payment-fee-levels', { token: t.adminToken, body: { campaignId: c.id, levelName: 'x', amount } }))
          .status,
      ).toBe(400);
    }
    const level = await api.level(c.id, 10_000);
    expect((await t.request('PATCH', `/api/payment-fee-levels/${level.id}`, { token: t.adminToken, body: { amount: 0 } })).status).toBe(
      400,
    );

    const cfg = `/api/payment-campaigns/${c.id}/payos-config`;
    expect((await t.request('POST', cfg, { token: t.adminToken, body: { ...SANDBOX_CREDS, apiKey: '••••6789' } })).status).toBe(400);
    await api.config(c.id);
    expect((await t.request('PUT', cfg, { token: t.adminToken, body: { apiKey: '••••abcd' } })).status).toBe(400);
    expect((await t.request('PUT', cfg, { token: t.adminToken, body: { apiKey: 'key•with•bullets' } })).status).toBe(400);
    // The stored key's own mask keeps it.
    await expectOk(t.request('PUT', cfg, { token: t.adminToken, body: { apiKey: '••••6789', clientId: SANDBOX_CREDS.clientId } }));
    const revealed = await expectOk(t.request('GET', `${cfg}?reveal=true`, { token: t.adminToken }));
    expect(revealed.data.apiKey).toBe(SANDBOX_CREDS.apiKey);
  });
});
