/**
 * What the member's pages are told about an order (issue 25.3c, 25.5): a receipt only for money that
 * counted, a reversed cash payment marked, its reversing entry no receipt, refunded excess not
 * counted, and the balance still due; my payments carries the money awaiting refund.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { campaigns, expectOk, join } from './fixture';
import { paymentOrders } from '../db/tables/payments';
import { allRows } from '../db/engine';

let t: TestApp;
let api: ReturnType<typeof campaigns>;
let org: number;
let n = 0;

beforeAll(async () => {
  t = await makeTestApp();
  api = campaigns(t);
  org = await t.createOrg('doan_co_so', 'OC', null, 'Chi đoàn K65');
});

async function fee(amount = 60_000) {
  const u = await t.createUser(`OCU${++n}`);
  await join(t, u.id, org);
  const { assignments } = await api.active(org, [u.id], { amount });
  return { u, assignmentId: assignments[0].id as number };
}

const markPaid = (id: number, amount?: number) =>
  expectOk(t.request('PATCH', `/api/payment/assignments/${id}/mark-paid`, { token: t.adminToken, body: { method: 'cash', amount } }));
const ordersOf = async (assignmentId: number) =>
  await allRows(t.db.select().from(paymentOrders).where(eq(paymentOrders.assignmentId, assignmentId)));
const seen = async (token: string, orderCode: number) =>
  (await expectOk(t.request('GET', `/api/payment/check-status/${orderCode}`, { token }))).data;
const mine = async (token: string, assignmentId: number) =>
  (await expectOk(t.request('GET', '/api/payment/assignments/my-assignments', { token }))).data.assignments.find(
    (a: { id: number }) => a.id === assignmentId,
  );

describe('the order outcome the member reads', () => {
  it('a reversed cash payment keeps its receipt, marked reversed and counting nothing; the reversing entry has none', async () => {
    const { u, assignmentId } = await fee(100_000);
    await markPaid(assignmentId);
    await expectOk(
      t.request('POST', `/api/payment/assignments/${assignmentId}/reverse-payment`, {
        token: t.adminToken,
        body: { reason: 'Ghi nhầm người' },
      }),
    );
    const [paid, entry] = await ordersOf(assignmentId);
    const original = await seen(u.token, paid!.orderCode);
    expect(original.outcome).toMatchObject({
      received: 100_000,
      counted: 0,
      receipt: true,
      reversalReason: 'Ghi nhầm người',
      reversedAt: expect.any(String),
      stillDue: 100_000,
    });
    const reversing = await seen(u.token, entry!.orderCode);
    expect(reversing.amount).toBe(-100_000);
    expect(reversing.outcome).toMatchObject({ received: 0, counted: 0, receipt: false, reversesOrderCode: paid!.orderCode });
    const history = await expectOk(t.request('GET', '/api/payment/history', { token: u.token }));
    expect(history.data.items.map((o: { outcome: { receipt: boolean } }) => o.outcome.receipt)).toEqual([false, true]);
  });

  it('refunded excess is not what the receipt counts: 120.000 ₫ on a 60.000 ₫ fee counts 60.000 ₫, 60.000 ₫ to be refunded, then refunded', async () => {
    const { u, assignmentId } = await fee(60_000);
    await markPaid(assignmentId, 120_000);
    const order = (await ordersOf(assignmentId))[0]!;
    expect(await mine(u.token, assignmentId)).toMatchObject({ status: 'PAID', refundDue: 60_000 });
    expect((await seen(u.token, order.orderCode)).outcome).toMatchObject({
      received: 120_000,
      counted: 60_000,
      refundDue: 60_000,
      refunded: 0,
      stillDue: 0,
      receipt: true,
    });
    await expectOk(
      t.request('POST', `/api/payment-admin/orders/${order.id}/resolve`, { token: t.adminToken, body: { resolution: 'REFUNDED' } }),
    );
    expect((await seen(u.token, order.orderCode)).outcome).toMatchObject({
      received: 120_000,
      counted: 60_000,
      refundDue: 0,
      refunded: 60_000,
      receipt: true,
    });
    expect(await mine(u.token, assignmentId)).toMatchObject({ refundDue: 0 });
  });

  it('an underpayment counts what came and says what is still due', async () => {
    const { u, assignmentId } = await fee(60_000);
    await markPaid(assignmentId, 25_000);
    const order = (await ordersOf(assignmentId))[0]!;
    expect((await seen(u.token, order.orderCode)).outcome).toMatchObject({
      received: 25_000,
      counted: 25_000,
      stillDue: 35_000,
      receipt: true,
    });
    expect(await mine(u.token, assignmentId)).toMatchObject({ status: 'PENDING', remainingAmount: 35_000, refundDue: 0 });
  });
});
