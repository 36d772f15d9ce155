/**
 * Issue 29 item 3: money and reminders under real concurrency. Two API instances share one
 * PostgreSQL database (as two servers behind a load balancer do) and twenty requests at once hit
 * one fee through both. SQLite has one writer, so this is about PostgreSQL only; races.test.ts
 * covers the same rules against a slow payOS on both engines.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandIn, type StandIn } from '../payos-sandbox/stand-in';
import { makeTestApp, TEST_ENGINE, type TestApp } from '../test/harness';
import { campaigns, expectOk, join, SANDBOX_CREDS } from './fixture';
import { linksClosing } from './links';
import { countedOf } from './money';
import { auditLogs } from '../db/tables/audit';
import { paymentAssignments, paymentOrders, paymentTransactions } from '../db/tables/payments';
import { paymentReminders } from '../db/tables/reminders';
import { allRows, firstRow } from '../db/engine';

const FEE = 40_000;
const N = 20;

describe.skipIf(TEST_ENGINE !== 'pg')('twenty requests at once through two instances on one PostgreSQL', () => {
  let payos: StandIn;
  let apps: TestApp[];
  let org: number;
  let n = 0;

  beforeAll(async () => {
    // payOS tens of milliseconds away, as the real one is: races the 1 ms sandbox hides show here.
    payos = await startStandIn({ latencyMs: 80 });
    payos.addMerchant(SANDBOX_CREDS);
    const env = { PAYOS_BASE_URL: payos.url, REMINDER_MAX_PER_MEMBER_PER_DAY: '1000' };
    const shared = `concurrency-${process.pid}`;
    apps = [await makeTestApp(env, shared), await makeTestApp(env, shared)];
    org = await apps[0]!.createOrg('doan_co_so', 'CONC');
  });
  afterAll(async () => {
    await linksClosing();
    await payos.close();
  });

  const t = () => apps[0]!;
  /** Request i goes to one instance or the other, alternately. */
  const via = (i: number) => apps[i % 2]!;
  const all = (call: (app: TestApp, i: number) => Promise<{ status: number; body: any }>) =>
    Promise.all(Array.from({ length: N }, (_, i) => call(via(i), i)));
  const statuses = (rs: { status: number }[]) => rs.map((r) => r.status).sort();

  /** A member's 40,000 ₫ fee in an active campaign, with an open payOS link. */
  async function fee() {
    const u = await t().createUser(`CONC${++n}`);
    await join(t(), u.id, org);
    const { campaign, assignments } = await campaigns(t()).active(org, [u.id], { amount: FEE });
    const assignmentId = assignments[0].id as number;
    const link = await expectOk(t().request('POST', '/api/payment/create-payment-link', { token: u.token, body: { assignmentId } }));
    return { campaignId: campaign.id as number, assignmentId, orderCode: link.data.orderCode as number };
  }

  const assignment = async (id: number) => (await firstRow(t().db.select().from(paymentAssignments).where(eq(paymentAssignments.id, id))))!;
  const ordersOf = async (id: number) => await allRows(t().db.select().from(paymentOrders).where(eq(paymentOrders.assignmentId, id)));
  const order = async (code: number) => (await firstRow(t().db.select().from(paymentOrders).where(eq(paymentOrders.orderCode, code))))!;
  const transactions = async (orderId: number) =>
    await allRows(t().db.select().from(paymentTransactions).where(eq(paymentTransactions.orderId, orderId)));
  const audits = async (action: string, entityId: number) =>
    (
      await allRows(
        t()
          .db.select()
          .from(auditLogs)
          .where(and(eq(auditLogs.action, action), eq(auditLogs.entityId, String(entityId)))),
      )
    ).length;
  const webhook = (app: TestApp, body: unknown) => app.request('POST', '/api/payment/webhook/payos', { body });
  const markPaid = (app: TestApp, id: number) =>
    app.request('PATCH', `/api/payment/assignments/${id}/mark-paid`, { token: app.adminToken, body: { method: 'cash' } });

  it('one bank transaction reported twenty times is recorded once', async () => {
    const { assignmentId, orderCode } = await fee();
    const body = payos.pay(orderCode);
    expect(statuses(await all((app) => webhook(app, body)))).toEqual(Array(N).fill(200));
    const o = await order(orderCode);
    expect(await transactions(o.id)).toHaveLength(1);
    expect(o).toMatchObject({ status: 'PAID', receivedAmount: FEE, attention: null });
    expect(await assignment(assignmentId)).toMatchObject({ status: 'PAID', paidAmount: FEE });
    expect(await audits('payment.webhook', o.id)).toBe(1);
  });

  it('twenty transfers of a twentieth each, at once, add up to the fee', async () => {
    const { assignmentId, orderCode } = await fee();
    const bodies = Array.from({ length: N }, () => payos.pay(orderCode, FEE / N));
    expect(statuses(await all((app, i) => webhook(app, bodies[i])))).toEqual(Array(N).fill(200));
    const o = await order(orderCode);
    expect(await transactions(o.id)).toHaveLength(N);
    // Each settle sums the order's transactions: one that missed another's would leave the order short.
    expect(o).toMatchObject({ status: 'PAID', receivedAmount: FEE, attention: null });
    expect(await assignment(assignmentId)).toMatchObject({ status: 'PAID', paidAmount: FEE });
    expect(await audits('payment.webhook', o.id)).toBe(N);
  });

  it('twenty mark-paids record one cash payment; the others are 409', async () => {
    const { assignmentId } = await fee();
    expect(statuses(await all((app) => markPaid(app, assignmentId)))).toEqual([200, ...Array(N - 1).fill(409)]);
    const manual = (await ordersOf(assignmentId)).filter((o) => o.paymentMethod === 'MANUAL');
    expect(manual).toHaveLength(1);
    expect(await assignment(assignmentId)).toMatchObject({ status: 'PAID', paidAmount: FEE });
    expect(await audits('payment.mark_paid', assignmentId)).toBe(1);
  });

  it('cash and the online transfer at once: the fee counts its money once, the rest is flagged', async () => {
    const { assignmentId, orderCode } = await fee();
    const body = payos.pay(orderCode);
    await all((app, i) => (i % 4 === 0 ? webhook(app, body) : markPaid(app, assignmentId)));
    const orders = await ordersOf(assignmentId);
    const counted = orders.reduce((s, o) => s + countedOf(o), 0);
    expect(counted).toBe(FEE);
    expect(await assignment(assignmentId)).toMatchObject({ status: 'PAID', paidAmount: FEE });
    expect(orders.filter((o) => o.paymentMethod === 'MANUAL').length).toBeLessThanOrEqual(1);
    // Whichever came second is the member's money to give back.
    const online = orders.find((o) => o.orderCode === orderCode)!;
    expect(online.receivedAmount).toBe(FEE);
    if (orders.some((o) => o.paymentMethod === 'MANUAL')) expect(online).toMatchObject({ attention: 'REFUND_DUE', attentionAmount: FEE });
  });

  it('twenty reminder sends remind the member once', async () => {
    const { campaignId, assignmentId } = await fee();
    const answers = await all((app) =>
      app.request('POST', `/api/payment-campaigns/${campaignId}/reminders`, { token: app.adminToken, body: {} }),
    );
    expect(statuses(answers)).toEqual(Array(N).fill(200));
    expect(answers.reduce((s, r) => s + (r.body.data.sent as number), 0)).toBe(1);
    expect(await allRows(t().db.select().from(paymentReminders).where(eq(paymentReminders.assignmentId, assignmentId)))).toHaveLength(1);
  });
});
