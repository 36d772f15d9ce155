import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { dataSignature } from '../payos/signature';
import type { TestApp } from '../test/harness';
import { expectOk, join, sandboxApp, SANDBOX_CREDS, type campaigns, type LiveServer } from './fixture';
import { paymentAssignments, paymentCampaigns, paymentOrders, paymentTransactions } from '../db/tables/payments';
import { allRows, firstRow, runQuery } from '../db/engine';

let t: TestApp;
let api: ReturnType<typeof campaigns>;
let server: LiveServer;
let org: number;
let n = 0;

beforeAll(async () => {
  ({ t, server, api, org } = await sandboxApp('PM'));
});
afterAll(() => server.close());

async function payer() {
  const u = await t.createUser(`PMU${++n}`);
  await join(t, u.id, org);
  return u;
}

/** A member with a PENDING assignment of an ACTIVE campaign that has an active payOS config. */
async function ready(amount = 50_000) {
  const u = await payer();
  const { campaign, assignments, level } = await api.active(org, [u.id], { amount });
  return { u, campaign, level, assignment: assignments[0] as { id: number } };
}

const link = (token: string, body: Record<string, unknown>) => t.request('POST', '/api/payment/create-payment-link', { token, body });
const order = async (orderCode: number) =>
  (await firstRow(t.db.select().from(paymentOrders).where(eq(paymentOrders.orderCode, orderCode))))!;
const audits = async (action: string) =>
  (await firstRow(t.db.select({ n: count() }).from(auditLogs).where(eq(auditLogs.action, action))))!.n;

async function webhookFor(orderCode: number, over: Record<string, unknown> = {}, key = SANDBOX_CREDS.checksumKey) {
  const o = await order(orderCode);
  const data = {
    orderCode,
    amount: o.amount,
    description: 'CSW1 Thanh toan',
    accountNumber: '12345678',
    reference: `FT${orderCode}`,
    transactionDateTime: '2026-11-23 10:00:00',
    currency: 'VND',
    paymentLinkId: o.paymentLinkId,
    code: '00',
    desc: 'success',
    counterAccountBankId: '',
    counterAccountBankName: '',
    counterAccountName: 'NGUYEN VAN A',
    counterAccountNumber: '',
    virtualAccountName: '',
    virtualAccountNumber: '',
    ...over,
  };
  return { code: '00', desc: 'success', success: true, data, signature: dataSignature(data, key) };
}

describe('POST /api/payment/create-payment-link', () => {
  it('creates an order for the caller’s own assignment and a payOS link; the amount comes from the fee level', async () => {
    const { u, campaign, assignment } = await ready(60_000);
    const res = await link(u.token, {
      assignmentId: assignment.id,
      campaignId: campaign.id,
      amount: 1,
      description: 'Thanh toán: x',
      organizationId: org,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, message: 'Tạo link thanh toán thành công', data: { amount: 60_000 } });
    expect(res.body.data.checkoutUrl).toBe(`${server.url}/sandbox/payos/checkout/${res.body.data.paymentLinkId}`);
    const o = await order(res.body.data.orderCode);
    expect(o).toMatchObject({
      amount: 60_000,
      status: 'PENDING',
      paymentMethod: 'ONLINE',
      userId: u.id,
      description: `Thanh toán: ${campaign.name}`,
    });
    expect(res.body.data.description.length).toBeLessThanOrEqual(25);
    // A second call hands out the same open link (changed with issue 11.1: it used to replace it).
    const again = await expectOk(link(u.token, { assignmentId: assignment.id }));
    expect(again.data).toMatchObject({ orderCode: res.body.data.orderCode, checkoutUrl: res.body.data.checkoutUrl, reused: true });
    expect((await order(res.body.data.orderCode)).status).toBe('PENDING');
  });

  it('refuses someone else’s assignment: not found for another member (issue 26 item 9), 403 even for a super admin', async () => {
    const { assignment } = await ready();
    const other = await payer();
    expect((await link(other.token, { assignmentId: assignment.id })).status).toBe(404);
    expect((await link(t.adminToken, { assignmentId: assignment.id })).status).toBe(403);
    expect((await link(other.token, { assignmentId: 999999 })).status).toBe(404);
    expect((await link(other.token, {})).status).toBe(400);
    expect((await t.request('POST', '/api/payment/create-payment-link', { body: { assignmentId: assignment.id } })).status).toBe(401);
  });

  it('only PENDING assignments of ACTIVE campaigns with an active payOS config (409 otherwise)', async () => {
    const paid = await ready();
    await expectOk(t.request('PATCH', `/api/payment/assignments/${paid.assignment.id}/mark-paid`, { token: t.adminToken }));
    expect((await link(paid.u.token, { assignmentId: paid.assignment.id })).status).toBe(409);

    const off = await ready();
    await expectOk(t.request('POST', `/api/payment-campaigns/${off.campaign.id}/payos-config/toggle-active`, { token: t.adminToken }));
    const res = await link(off.u.token, { assignmentId: off.assignment.id });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('PayOS');

    const done = await ready();
    await expectOk(t.request('POST', `/api/payment-campaigns/${done.campaign.id}/complete`, { token: t.adminToken }));
    expect((await link(done.u.token, { assignmentId: done.assignment.id })).status).toBe(409);

    const late = await ready();
    await runQuery(
      t.db
        .update(paymentCampaigns)
        .set({ endDate: new Date(Date.now() - 1000) })
        .where(eq(paymentCampaigns.id, late.campaign.id)),
    );
    expect((await link(late.u.token, { assignmentId: late.assignment.id })).status).toBe(409);
  });

  it('answers 502 and keeps no order when payOS cannot be reached', async () => {
    const { u, assignment } = await ready();
    const saved = t.env.PAYOS_BASE_URL;
    t.env.PAYOS_BASE_URL = 'http://127.0.0.1:9';
    try {
      const res = await link(u.token, { assignmentId: assignment.id });
      expect(res.status).toBe(502);
      expect(res.body.message).toContain('Không thể tạo link thanh toán');
    } finally {
      t.env.PAYOS_BASE_URL = saved;
    }
    expect((await firstRow(t.db.select({ n: count() }).from(paymentOrders).where(eq(paymentOrders.assignmentId, assignment.id))))!.n).toBe(
      0,
    );
  });
});

describe('POST /api/payment/webhook/payos', () => {
  it('a valid signature marks order and assignment PAID with one transaction; a replay changes nothing', async () => {
    const { u, assignment } = await ready(75_000);
    const { data } = await expectOk(link(u.token, { assignmentId: assignment.id }));
    const body = await webhookFor(data.orderCode);
    const res = await t.request('POST', '/api/payment/webhook/payos', { body });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Đã ghi nhận thanh toán' });
    const o = await order(data.orderCode);
    expect(o.status).toBe('PAID');
    expect(o.paidAt).not.toBeNull();
    const a = (await firstRow(t.db.select().from(paymentAssignments).where(eq(paymentAssignments.id, assignment.id))))!;
    expect(a).toMatchObject({ status: 'PAID', paidAmount: 75_000, paymentMethod: 'ONLINE' });
    const webhooks = await audits('payment.webhook');

    const replay = await t.request('POST', '/api/payment/webhook/payos', { body });
    expect(replay.status).toBe(200);
    expect(replay.body.message).toContain('trước đó');
    expect((await firstRow(t.db.select({ n: count() }).from(paymentTransactions).where(eq(paymentTransactions.orderId, o.id))))!.n).toBe(1);
    expect(await audits('payment.webhook')).toBe(webhooks);
    expect((await order(data.orderCode)).paidAt!.getTime()).toBe(o.paidAt!.getTime());

    const status = await expectOk(t.request('GET', `/api/payment/check-status/${data.orderCode}`, { token: u.token }));
    expect(status.data).toMatchObject({ orderCode: data.orderCode, amount: 75_000, status: 'PAID' });
    expect(status.data.transactions).toEqual([
      {
        reference: `FT${data.orderCode}`,
        amount: 75_000,
        accountNumber: '12345678',
        description: 'CSW1 Thanh toan',
        transactionDateTime: '2026-11-23 10:00:00',
      },
    ]);
  });

  // Changed with issue 11.3: a correctly signed webhook with another amount is money that arrived, so it is
  // recorded and flagged (money.test.ts), no longer refused. Forged ones are still refused.
  it('a bad or missing signature is refused (400), logged, and changes nothing', async () => {
    const { u, assignment } = await ready(40_000);
    const { data } = await expectOk(link(u.token, { assignmentId: assignment.id }));
    const rejected = await audits('payment.webhook_rejected');

    const forged = await webhookFor(data.orderCode, {}, 'not-the-checksum-key');
    expect((await t.request('POST', '/api/payment/webhook/payos', { body: forged })).status).toBe(400);
    const tampered = {
      ...(await webhookFor(data.orderCode)),
      data: { ...(await webhookFor(data.orderCode)).data, amount: 40_000, reference: 'OTHER' },
    };
    expect((await t.request('POST', '/api/payment/webhook/payos', { body: tampered })).status).toBe(400);
    const unsigned = { ...(await webhookFor(data.orderCode)), signature: undefined };
    expect((await t.request('POST', '/api/payment/webhook/payos', { body: unsigned })).status).toBe(400);

    expect(await audits('payment.webhook_rejected')).toBe(rejected + 3);
    const reasons = (
      await allRows(
        t.db
          .select({ after: auditLogs.after })
          .from(auditLogs)
          .where(and(eq(auditLogs.action, 'payment.webhook_rejected'), eq(auditLogs.entityId, String((await order(data.orderCode)).id)))),
      )
    ).map((r) => JSON.parse(r.after!).reason);
    expect(reasons).toEqual(['invalid_signature', 'invalid_signature', 'invalid_signature']);
    expect((await order(data.orderCode)).status).toBe('PENDING');
    expect((await firstRow(t.db.select().from(paymentAssignments).where(eq(paymentAssignments.id, assignment.id))))!.status).toBe(
      'PENDING',
    );
  });

  it('ignores events for orders it does not know (payOS webhook confirmation) and malformed bodies are 400', async () => {
    const data = { orderCode: 123, amount: 3000, reference: 'X' };
    const res = await t.request('POST', '/api/payment/webhook/payos', {
      body: { code: '00', desc: 'success', data, signature: dataSignature(data, 'k') },
    });
    expect(res.status).toBe(200);
    expect((await t.request('POST', '/api/payment/webhook/payos', { body: { nothing: true } })).status).toBe(400);
  });
});

describe('status, cancel and history', () => {
  it('check-status asks payOS while PENDING; the owner or a report viewer of the campaign may ask, for others it is not found (issue 26 item 9)', async () => {
    const { u, assignment, campaign } = await ready();
    const { data } = await expectOk(link(u.token, { assignmentId: assignment.id }));
    const pending = await expectOk(t.request('GET', `/api/payment/check-status/${data.orderCode}`, { token: u.token }));
    expect(pending.data).toMatchObject({ status: 'PENDING', transactions: [] });
    const stranger = await payer();
    const hidden = await t.request('GET', `/api/payment/check-status/${data.orderCode}`, { token: stranger.token });
    expect(hidden.status).toBe(404);
    const missing = await t.request('GET', '/api/payment/check-status/999999999', { token: stranger.token });
    // Another member's order reads exactly as one that does not exist.
    expect(hidden.body).toEqual(missing.body);
    expect(
      (await t.request('POST', '/api/payment/create-payment-link', { token: stranger.token, body: { assignmentId: assignment.id } }))
        .status,
    ).toBe(404);
    const reports = await t.createRole(`pm_reports${++n}`, ['payment-campaigns.view_reports']);
    const viewer = await t.createUser(`PMV${n}`, [{ roleId: reports, organizationId: campaign.organizationId }]);
    expect((await t.request('GET', `/api/payment/check-status/${data.orderCode}`, { token: viewer.token })).status).toBe(200);
    expect((await t.request('GET', '/api/payment/check-status/999999999', { token: u.token })).status).toBe(404);
  });

  it('the caller cancels their own PENDING order (also at payOS); history lists their orders', async () => {
    const { u, assignment } = await ready();
    const { data } = await expectOk(link(u.token, { assignmentId: assignment.id }));
    const o = await order(data.orderCode);
    expect((await t.request('POST', `/api/payment/cancel/${o.id}`, { token: (await payer()).token })).status).toBe(404);
    const res = await expectOk(t.request('POST', `/api/payment/cancel/${o.id}`, { token: u.token }));
    expect(res.data.status).toBe('CANCELLED');
    expect((await t.request('POST', `/api/payment/cancel/${o.id}`, { token: u.token })).status).toBe(409);
    // By its order code too, which passes PostgreSQL's integer ids (the portal cancels by code).
    const second = await expectOk(link(u.token, { assignmentId: assignment.id }));
    expect(second.data.orderCode).toBeGreaterThan(2 ** 31);
    expect((await expectOk(t.request('POST', `/api/payment/cancel/${second.data.orderCode}`, { token: u.token }))).data.status).toBe(
      'CANCELLED',
    );
    // payOS agrees: a status check does not revive it.
    expect((await expectOk(t.request('POST', `/api/payment/process/${o.id}`, { token: u.token }))).data.status).toBe('CANCELLED');
    const history = await expectOk(t.request('GET', '/api/payment/history', { token: u.token }));
    expect(history.data.items.map((i: { orderCode: number }) => i.orderCode)).toEqual([second.data.orderCode, data.orderCode]);
    expect(history.data.items[0]).toMatchObject({ status: 'CANCELLED', campaign: { id: o.campaignId } });
  });
});
