/**
 * Issue 15.3 through the API: exempt (miễn), reduce (giảm) and undo, reversing a mistaken
 * mark-paid; who may do it (the campaign's organization), what the member and the figures show,
 * links closed at payOS, audit rows, and the refusals a treasurer would meet.
 */
import { PERMISSIONS } from '@doanhoi/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { payosClient } from '../payos/client';
import { makeTestApp, type TestApp } from '../test/harness';
import { campaigns, expectOk, join, liveServer, SANDBOX_CREDS } from './fixture';
import { paymentAssignments, paymentOrders } from '../db/tables/payments';
import { pressCheckout } from '../payos-sandbox/fixture';
import { allRows, firstRow } from '../db/engine';

let t: TestApp;
let api: ReturnType<typeof campaigns>;
let server: Awaited<ReturnType<typeof liveServer>>;
let chiDoan: number;
let n = 0;
const actors: Record<string, { id: number; token: string }> = {};

beforeAll(async () => {
  t = await makeTestApp();
  server = await liveServer(t);
  api = campaigns(t);
  const root = await t.createOrg('doan_truong', 'ADJ');
  const faculty = await t.createOrg('doan_co_so', 'ADJ-F1', root);
  chiDoan = await t.createOrg('chi_doan', 'ADJ-F1-C1', faculty);
  const otherFaculty = await t.createOrg('doan_co_so', 'ADJ-F2', root);
  const codes = PERMISSIONS.map((p) => p.code).filter((c) => c.startsWith('payment-campaigns.'));
  const full = await t.createRole('adj_full', codes);
  // Everything a staff member holds (mark paid included) but neither new code.
  const withoutNew = await t.createRole(
    'adj_manage',
    codes.filter((c) => c !== 'payment-campaigns.exempt' && c !== 'payment-campaigns.reverse_payment'),
  );
  actors.global = await t.createUser('ADJG', [{ roleId: full }]);
  actors.inside = await t.createUser('ADJI', [{ roleId: full, organizationId: faculty }]);
  actors.outside = await t.createUser('ADJO', [{ roleId: full, organizationId: otherFaculty }]);
  actors.manageOnly = await t.createUser('ADJM', [{ roleId: withoutNew, organizationId: faculty }]);
});
afterAll(() => server.close());

async function ready(amount = 100_000) {
  const u = await t.createUser(`ADJU${++n}`);
  await join(t, u.id, chiDoan);
  const { campaign, assignments } = await api.active(chiDoan, [u.id], { amount });
  return { u, campaignId: campaign.id as number, assignmentId: assignments[0].id as number };
}

const post = (path: string, token: string, body: unknown) => t.request('POST', `/api/payment/assignments${path}`, { token, body });
const exempt = (id: number, token = t.adminToken, reason = 'Hộ nghèo') => post(`/${id}/exempt`, token, { reason });
const reduce = (id: number, amount: number, token = t.adminToken, reason = 'Con thương binh') =>
  post(`/${id}/reduce`, token, { amount, reason });
const revoke = (id: number, token = t.adminToken, reason = 'Nhầm người') => post(`/${id}/revoke-adjustment`, token, { reason });
const weeklyTotal = async (campaignId: number) => {
  const weeks = (await expectOk(t.request('GET', `/api/dashboard/weekly?campaignId=${campaignId}`, { token: t.adminToken }))).weeks as {
    collected: number;
    payments: number;
  }[];
  return weeks.reduce((s, w) => ({ collected: s.collected + w.collected, payments: s.payments + w.payments }), {
    collected: 0,
    payments: 0,
  });
};
const reverse = (id: number, token = t.adminToken, body: Record<string, unknown> = { reason: 'Ghi nhầm người' }) =>
  post(`/${id}/reverse-payment`, token, body);
const markPaid = (id: number, amount?: number) =>
  expectOk(t.request('PATCH', `/api/payment/assignments/${id}/mark-paid`, { token: t.adminToken, body: { method: 'cash', amount } }));
const statistics = async (campaignId: number) => {
  const body = await expectOk(t.request('GET', `/api/payment-campaigns/${campaignId}/statistics`, { token: t.adminToken }));
  return body.data ?? body;
};
const row = async (id: number) => (await firstRow(t.db.select().from(paymentAssignments).where(eq(paymentAssignments.id, id))))!;
const audited = async (action: string, entityId: number) =>
  await allRows(
    t.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, action), eq(auditLogs.entityId, String(entityId)))),
  );

describe('who may exempt, reduce and reverse (payment-campaigns.exempt / reverse_payment in the campaign organization)', () => {
  it.each([
    ['super admin', 'admin', 200],
    ['global holder', 'global', 200],
    ['holder on the faculty above the campaign', 'inside', 200],
    ['holder on another faculty', 'outside', 403],
    ['manage_assignments without the new codes', 'manageOnly', 403],
    ['the member', 'member', 403],
  ])('%s', async (_, who, status) => {
    const { u, assignmentId } = await ready();
    const token = who === 'admin' ? t.adminToken : who === 'member' ? u.token : actors[who]!.token;
    expect((await exempt(assignmentId, token)).status).toBe(status);
    const other = await ready();
    expect((await reduce(other.assignmentId, 60_000, token)).status).toBe(status);
    const paid = await ready();
    await markPaid(paid.assignmentId);
    expect((await reverse(paid.assignmentId, token)).status).toBe(status);
    if (status === 200) expect((await revoke(assignmentId, token)).status).toBe(200);
  });

  it('an unknown assignment is 404 for a global holder, 403 for the others', async () => {
    expect((await exempt(999_999)).status).toBe(404);
    expect((await exempt(999_999, actors.inside!.token)).status).toBe(403);
  });
});

describe('exempt and reduce', () => {
  it('statistics: expected drops, exempted and reduced are counted, the member sees the reduced amount and "exempt"', async () => {
    const a = await ready(100_000);
    const u2 = await t.createUser(`ADJU${++n}`);
    await join(t, u2.id, chiDoan);
    const second = await api.assign(
      a.campaignId,
      u2.id,
      (await expectOk(t.request('GET', `/api/payment/assignments/${a.assignmentId}`, { token: t.adminToken }))).data.feeLevelId,
    );
    const before = await statistics(a.campaignId);
    expect(before.totalExpected).toBe(200_000);

    const ex = await expectOk(exempt(a.assignmentId));
    expect(ex.data).toMatchObject({
      status: 'EXEMPTED',
      amount: 0,
      originalAmount: 100_000,
      adjustment: 'EXEMPTED',
      adjustmentReason: 'Hộ nghèo',
      remainingAmount: 0,
      canPay: false,
    });
    const red = await expectOk(reduce(second.id, 40_000));
    expect(red.data).toMatchObject({
      status: 'PENDING',
      amount: 40_000,
      originalAmount: 100_000,
      adjustment: 'REDUCED',
      remainingAmount: 40_000,
    });

    const after = await statistics(a.campaignId);
    expect(after).toMatchObject({
      totalExpected: 40_000,
      uncollected: 40_000,
      exemptedCount: 1,
      reducedCount: 1,
      waivedAmount: 160_000,
      pendingCount: 1,
      totalMembers: 2,
    });

    const mine = await expectOk(t.request('GET', '/api/payment/assignments/my-assignments', { token: u2.token }));
    expect(mine.data.assignments[0]).toMatchObject({ amount: 40_000, remainingAmount: 40_000, canPay: true });
    const link = await expectOk(
      t.request('POST', '/api/payment/create-payment-link', { token: u2.token, body: { assignmentId: second.id } }),
    );
    expect(link.data.amount).toBe(40_000);
    // An exempted fee cannot be paid or marked paid.
    expect(
      (await t.request('POST', '/api/payment/create-payment-link', { token: a.u.token, body: { assignmentId: a.assignmentId } })).status,
    ).toBe(409);
    expect(
      (await t.request('PATCH', `/api/payment/assignments/${a.assignmentId}/mark-paid`, { token: t.adminToken, body: { method: 'cash' } }))
        .status,
    ).toBe(409);

    expect(await audited('assignment.exempt', a.assignmentId)).toHaveLength(1);
    expect(JSON.parse((await audited('assignment.reduce', second.id))[0]!.after!)).toMatchObject({
      amount: 40_000,
      reason: 'Con thương binh',
    });
  });

  it('closes the open payOS link made for the old amount, at payOS and here', async () => {
    const { u, assignmentId } = await ready();
    const link = (await expectOk(t.request('POST', '/api/payment/create-payment-link', { token: u.token, body: { assignmentId } }))).data;
    await expectOk(reduce(assignmentId, 70_000));
    const order = (await firstRow(t.db.select().from(paymentOrders).where(eq(paymentOrders.orderCode, link.orderCode))))!;
    expect(order.status).toBe('CANCELLED');
    const sandbox = payosClient({ ...SANDBOX_CREDS, baseUrl: `${server.url}/sandbox/payos` });
    expect((await sandbox.getPaymentLink(link.orderCode)).status).toBe('CANCELLED');
  });

  it('a partly paid fee: reduced to what was paid becomes PAID; below it is refused; exempt is refused', async () => {
    const { campaignId, assignmentId } = await ready(100_000);
    await markPaid(assignmentId, 30_000);
    expect((await exempt(assignmentId)).status).toBe(409);
    expect((await reduce(assignmentId, 20_000)).status).toBe(409);
    expect((await reduce(assignmentId, 50_000)).body.data).toMatchObject({ status: 'PENDING', remainingAmount: 20_000 });
    expect((await reduce(assignmentId, 30_000)).body.data).toMatchObject({ status: 'PAID', remainingAmount: 0, originalAmount: 100_000 });
    expect(await statistics(campaignId)).toMatchObject({ totalExpected: 30_000, collected: 30_000, uncollected: 0, paidCount: 1 });
  });

  it('refusals: reason required and at most 500 characters, amount above 0 and below the current amount, already exempt', async () => {
    const { assignmentId } = await ready(100_000);
    expect((await post(`/${assignmentId}/exempt`, t.adminToken, {})).status).toBe(400);
    expect((await post(`/${assignmentId}/exempt`, t.adminToken, { reason: '   ' })).status).toBe(400);
    expect((await exempt(assignmentId, t.adminToken, 'x'.repeat(501))).status).toBe(400);
    expect((await reduce(assignmentId, 0)).status).toBe(400);
    expect((await reduce(assignmentId, 100_000)).status).toBe(422);
    expect((await reduce(assignmentId, 150_000)).status).toBe(422);
    await expectOk(exempt(assignmentId));
    expect((await exempt(assignmentId)).status).toBe(409);
    expect((await reduce(assignmentId, 50_000)).status).toBe(409);
  });

  it('undo restores the original amount and makes the fee payable again; a fee-level change no longer moves an adjusted fee', async () => {
    const { u, campaignId, assignmentId } = await ready(100_000);
    expect((await revoke(assignmentId)).status).toBe(409);
    await expectOk(exempt(assignmentId));
    const levelId = (await row(assignmentId)).feeLevelId;
    await expectOk(t.request('PATCH', `/api/payment-fee-levels/${levelId}`, { token: t.adminToken, body: { amount: 120_000 } }));
    expect((await row(assignmentId)).amount).toBe(0);
    const undone = await expectOk(revoke(assignmentId));
    expect(undone.data).toMatchObject({ status: 'PENDING', amount: 100_000, originalAmount: null, adjustment: null });
    expect(await statistics(campaignId)).toMatchObject({ totalExpected: 100_000, exemptedCount: 0 });
    expect(JSON.parse((await audited('assignment.revoke_adjustment', assignmentId))[0]!.after!)).toMatchObject({
      reason: 'Nhầm người',
      amount: 100_000,
    });
    expect((await t.request('POST', '/api/payment/create-payment-link', { token: u.token, body: { assignmentId } })).status).toBe(200);
  });

  it('a finished campaign refuses adjustments (409)', async () => {
    const { campaignId, assignmentId } = await ready();
    await expectOk(t.request('POST', `/api/payment-campaigns/${campaignId}/complete`, { token: t.adminToken }));
    expect((await exempt(assignmentId)).status).toBe(409);
  });
});

describe('reversing a mistaken mark-paid', () => {
  it('keeps the payment record, adds a reversing entry, the fee is unpaid and payable again, collected drops', async () => {
    const { u, campaignId, assignmentId } = await ready(100_000);
    await markPaid(assignmentId);
    expect(await statistics(campaignId)).toMatchObject({ collected: 100_000, paidCount: 1 });
    const res = await expectOk(reverse(assignmentId));
    expect(res.data).toMatchObject({ status: 'PENDING', paidAmount: null, remainingAmount: 100_000 });

    const orders = await allRows(t.db.select().from(paymentOrders).where(eq(paymentOrders.assignmentId, assignmentId)));
    const original = orders.find((o) => o.reversesOrderId === null)!;
    const entry = orders.find((o) => o.reversesOrderId === original.id)!;
    expect(original).toMatchObject({ status: 'PAID', receivedAmount: 100_000, reversalReason: 'Ghi nhầm người' });
    expect(original.reversedAt).not.toBeNull();
    expect(entry).toMatchObject({
      status: 'PAID',
      paymentMethod: 'MANUAL',
      amount: -100_000,
      receivedAmount: -100_000,
      note: 'Ghi nhầm người',
    });
    expect(await statistics(campaignId)).toMatchObject({
      collected: 0,
      uncollected: 100_000,
      totalReceived: 0,
      paidCount: 0,
      pendingCount: 1,
      balanceDue: 0,
      balanceDueCount: 0,
    });
    // The dashboard's weekly chart counts the reversed money nowhere.
    expect(await weeklyTotal(campaignId)).toEqual({ collected: 0, payments: 0 });

    // The admin history shows both entries.
    const history = await expectOk(
      t.request('GET', `/api/payment-admin/payment-history/${campaignId}?status=ALL`, { token: t.adminToken }),
    );
    expect(history.data.items.map((i: { amount: number }) => i.amount).sort()).toEqual([-100_000, 100_000]);
    expect(history.data.items.find((i: { amount: number }) => i.amount > 0)).toMatchObject({ reversal_reason: 'Ghi nhầm người' });
    expect(history.data.items.find((i: { amount: number }) => i.amount < 0)).toMatchObject({ reverses_order_id: original.id });
    expect(await audited('payment.reverse', original.id)).toHaveLength(1);

    expect((await t.request('POST', '/api/payment/create-payment-link', { token: u.token, body: { assignmentId } })).status).toBe(200);
    // Paying again after the reversal counts once.
    await markPaid(assignmentId);
    expect(await statistics(campaignId)).toMatchObject({ collected: 100_000, paidCount: 1 });
    expect(await weeklyTotal(campaignId)).toEqual({ collected: 100_000, payments: 1 });
  });

  it('double reversal is refused (409), also when two requests race', async () => {
    const { assignmentId } = await ready();
    await markPaid(assignmentId);
    const orderId = (await firstRow(t.db.select().from(paymentOrders).where(eq(paymentOrders.assignmentId, assignmentId))))!.id;
    const answers = await Promise.all([
      reverse(assignmentId, t.adminToken, { reason: 'a', orderId }),
      reverse(assignmentId, t.adminToken, { reason: 'b', orderId }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect((await reverse(assignmentId, t.adminToken, { reason: 'c', orderId })).status).toBe(409);
    // Without an order id: no manual payment left in force.
    expect((await reverse(assignmentId)).status).toBe(409);
    const entries = await allRows(t.db.select().from(paymentOrders).where(eq(paymentOrders.assignmentId, assignmentId)));
    expect(entries).toHaveLength(2);
    // The reversing entry itself cannot be reversed.
    const entry = entries.find((e) => e.reversesOrderId !== null)!;
    expect((await reverse(assignmentId, t.adminToken, { reason: 'd', orderId: entry.id })).status).toBe(422);
  });

  it('an online payOS payment is refused with 422 and sent to the refund flow', async () => {
    const { u, assignmentId } = await ready();
    const link = (await expectOk(t.request('POST', '/api/payment/create-payment-link', { token: u.token, body: { assignmentId } }))).data;
    // Settle it as payOS would (the sandbox's checkout).
    await pressCheckout(t, server.url, link.paymentLinkId, { token: u.token });
    const deadline = Date.now() + 5_000;
    while ((await row(assignmentId)).status !== 'PAID' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const orderId = (await firstRow(t.db.select().from(paymentOrders).where(eq(paymentOrders.orderCode, link.orderCode))))!.id;
    const res = await reverse(assignmentId, t.adminToken, { reason: 'x', orderId });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/PayOS/);
    expect((await reverse(assignmentId)).status).toBe(422);
  });

  it('a reason is required; an order of another fee is 404', async () => {
    const a = await ready();
    const b = await ready();
    await markPaid(a.assignmentId);
    expect((await reverse(a.assignmentId, t.adminToken, {})).status).toBe(400);
    const orderOfA = (await firstRow(t.db.select().from(paymentOrders).where(eq(paymentOrders.assignmentId, a.assignmentId))))!.id;
    expect((await reverse(b.assignmentId, t.adminToken, { reason: 'x', orderId: orderOfA })).status).toBe(404);
  });
});
