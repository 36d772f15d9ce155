/**
 * Issue 25 item 1: money paths that wait for payOS re-read the fee in their writing transaction.
 * Fired against a stand-in payOS over real HTTP with 150 ms latency (PAYOS_BASE_URL), as in
 * production: parallel mark-paids, a mark-paid while the member's money lands, mark-paid and an
 * exemption at once. Exactly one payment; the others 409; money that still arrives is flagged.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandIn, type StandIn } from '../payos-sandbox/stand-in';
import { makeTestApp, type TestApp } from '../test/harness';
import { campaigns, expectOk, join, SANDBOX_CREDS } from './fixture';
import { linksClosing } from './links';
import { paymentAssignments, paymentOrders } from '../db/tables/payments';
import { allRows, firstRow } from '../db/engine';

let t: TestApp;
let payos: StandIn;
let api: ReturnType<typeof campaigns>;
let org: number;
let n = 0;
const FEE = 40_000;

beforeAll(async () => {
  payos = await startStandIn({ latencyMs: 150 });
  payos.addMerchant(SANDBOX_CREDS);
  t = await makeTestApp({ PAYOS_BASE_URL: payos.url });
  api = campaigns(t);
  org = await t.createOrg('doan_co_so', 'RACE');
});
afterAll(() => payos.close());

/** A member with a 40,000 ₫ fee in an active campaign and, unless told otherwise, an open payOS link. */
async function fee(withLink = true) {
  const u = await t.createUser(`RACE${++n}`);
  await join(t, u.id, org);
  const { campaign, assignments } = await api.active(org, [u.id], { amount: FEE });
  const assignmentId = assignments[0].id as number;
  const link = withLink
    ? (await expectOk(t.request('POST', '/api/payment/create-payment-link', { token: u.token, body: { assignmentId } }))).data
    : null;
  return { u, campaign, assignmentId, orderCode: link?.orderCode as number };
}

const markPaid = (id: number, token = t.adminToken) =>
  t.request('PATCH', `/api/payment/assignments/${id}/mark-paid`, { token, body: { method: 'cash' } });
const exempt = (id: number) =>
  t.request('POST', `/api/payment/assignments/${id}/exempt`, { token: t.adminToken, body: { reason: 'Hoàn cảnh khó khăn' } });
const webhook = (body: unknown) => t.request('POST', '/api/payment/webhook/payos', { body });
const assignment = async (id: number) => (await firstRow(t.db.select().from(paymentAssignments).where(eq(paymentAssignments.id, id))))!;
const ordersOf = async (id: number) => await allRows(t.db.select().from(paymentOrders).where(eq(paymentOrders.assignmentId, id)));
const manual = async (id: number) => (await ordersOf(id)).filter((o) => o.paymentMethod === 'MANUAL' && o.status === 'PAID');
const statuses = (rs: { status: number }[]) => rs.map((r) => r.status).sort();

/**
 * Starts `call` and returns once payOS holds its first request (for `holdMs`), with payOS quick
 * again for whatever the test fires next. A fixed sleep instead lost the race on a busy machine
 * (issue 25 item 18): the call had not reached payOS yet, or its 150 ms were already over.
 */
async function heldAtPayos<T>(call: () => Promise<T>, holdMs = 1500): Promise<{ pending: Promise<T> }> {
  const seen = payos.calls.length;
  payos.latencyMs = holdMs;
  const pending = call();
  const deadline = Date.now() + 10_000;
  while (payos.calls.length === seen && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  payos.latencyMs = 0;
  return { pending };
}
const stats = (campaignId: number) =>
  expectOk(t.request('GET', `/api/payment-campaigns/${campaignId}/statistics`, { token: t.adminToken }));

describe('mark-paid against a slow payOS', () => {
  it('a double click records one cash payment; the second is 409', async () => {
    const { assignmentId, orderCode, campaign } = await fee();
    const answers = await Promise.all([markPaid(assignmentId), markPaid(assignmentId)]);
    expect(statuses(answers)).toEqual([200, 409]);
    expect(await manual(assignmentId)).toHaveLength(1);
    expect(await assignment(assignmentId)).toMatchObject({ status: 'PAID', paidAmount: FEE });
    expect(payos.link(orderCode)!.status).toBe('CANCELLED');
    expect(await stats(campaign.id)).toMatchObject({ collected: FEE, totalReceived: FEE });
  });

  it('twenty parallel clicks record one payment and nineteen 409s', async () => {
    const { assignmentId } = await fee();
    const answers = await Promise.all(Array.from({ length: 20 }, () => markPaid(assignmentId)));
    expect(statuses(answers)).toEqual([200, ...Array(19).fill(409)]);
    expect(await manual(assignmentId)).toHaveLength(1);
    expect((await manual(assignmentId))[0]!.receivedAmount).toBe(FEE);
    expect((await assignment(assignmentId)).paidAmount).toBe(FEE);
  });

  it("the member's online payment landing during the call: mark-paid is 409, the fee is paid once", async () => {
    const { assignmentId, orderCode } = await fee();
    // While mark-paid waits for payOS to cancel the link, the member's transfer is reported.
    const { pending } = await heldAtPayos(() => markPaid(assignmentId));
    try {
      expect((await webhook(payos.pay(orderCode))).status).toBe(200);
    } finally {
      payos.latencyMs = 150;
    }
    const res = await pending;
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/vừa được thanh toán/);
    expect(await manual(assignmentId)).toHaveLength(0);
    expect(await assignment(assignmentId)).toMatchObject({ status: 'PAID', paidAmount: FEE, paymentMethod: 'ONLINE' });
  });

  it('money arriving after the cash payment is recorded and flagged for a refund', async () => {
    const { assignmentId, orderCode } = await fee();
    await expectOk(markPaid(assignmentId));
    // A transfer from a QR code the member kept open: payOS reports it anyway.
    expect((await webhook(payos.pay(orderCode))).status).toBe(200);
    const online = (await ordersOf(assignmentId)).find((o) => o.orderCode === orderCode)!;
    expect(online).toMatchObject({ receivedAmount: FEE, attention: 'REFUND_DUE', attentionReason: 'DUPLICATE', attentionAmount: FEE });
    expect((await assignment(assignmentId)).paidAmount).toBe(FEE);
  });

  it('mark-paid and an exemption at once: exactly one wins, never an exempted fee with cash on it', async () => {
    for (let i = 0; i < 3; i++) {
      const { assignmentId } = await fee();
      const answers = await Promise.all([markPaid(assignmentId), exempt(assignmentId)]);
      expect(statuses(answers)).toEqual([200, 409]);
      const a = await assignment(assignmentId);
      if (a.status === 'EXEMPTED') expect(await manual(assignmentId)).toHaveLength(0);
      else expect(a).toMatchObject({ status: 'PAID', paidAmount: FEE, adjustment: null });
    }
  });

  it('an exemption landing during mark-paid (no link to wait for on its side) leaves mark-paid 409', async () => {
    const { assignmentId } = await fee();
    const { pending } = await heldAtPayos(() => markPaid(assignmentId));
    try {
      // The exemption cancels the same link: quick now, so it writes first.
      expect((await exempt(assignmentId)).status).toBe(200);
    } finally {
      payos.latencyMs = 150;
    }
    expect((await pending).status).toBe(409);
    expect((await assignment(assignmentId)).status).toBe('EXEMPTED');
    expect(await manual(assignmentId)).toHaveLength(0);
  });

  it('removing an assignment while its money lands is refused: the payment is never deleted with it', async () => {
    const { assignmentId, orderCode } = await fee();
    const { pending } = await heldAtPayos(() => t.request('DELETE', `/api/payment/assignments/${assignmentId}`, { token: t.adminToken }));
    try {
      expect((await webhook(payos.pay(orderCode))).status).toBe(200);
    } finally {
      payos.latencyMs = 150;
    }
    expect((await pending).status).toBe(409);
    expect(await assignment(assignmentId)).toMatchObject({ status: 'PAID', paidAmount: FEE });
    await linksClosing();
  });
});
