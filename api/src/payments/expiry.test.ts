import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { dataSignature } from '../payos/signature';
import { findLink, saveLink } from '../payos-sandbox/state';
import type { TestApp } from '../test/harness';
import { EXPIRY_GRACE_MS, expireStaleOrders, GIVE_UP_MS } from './expiry';
import { expectOk, join, sandboxApp, SANDBOX_CREDS, type campaigns, type LiveServer } from './fixture';
import { paymentAssignments, paymentOrders } from '../db/tables/payments';
import { pressCheckout } from '../payos-sandbox/fixture';
import { firstRow } from '../db/engine';

let t: TestApp;
let api: ReturnType<typeof campaigns>;
let server: LiveServer;
let org: number;
let n = 0;
const MINUTE = 60_000;

beforeAll(async () => {
  ({ t, server, api, org } = await sandboxApp('EXP'));
});
afterAll(() => server.close());

/** A member's fresh payment link: its order and its sandbox link. */
async function openOrder() {
  const u = await t.createUser(`EXPU${++n}`);
  await join(t, u.id, org);
  const { assignments } = await api.active(org, [u.id], { amount: 40_000 });
  const assignment = assignments[0] as { id: number };
  const res = await expectOk(
    t.request('POST', '/api/payment/create-payment-link', { token: u.token, body: { assignmentId: assignment.id } }),
  );
  const orderCode = res.data.orderCode as number;
  return { u, assignment, orderCode, link: (await findLink(t.db, t.env, String(orderCode), server.url))! };
}

const order = async (orderCode: number) =>
  (await firstRow(t.db.select().from(paymentOrders).where(eq(paymentOrders.orderCode, orderCode))))!;
const assignmentStatus = async (id: number) =>
  (await firstRow(t.db.select().from(paymentAssignments).where(eq(paymentAssignments.id, id))))!.status;
const sandbox = () => `${server.url}/sandbox/payos`;
/** A moment when a link made now is past its end and the grace period. */
const afterLinkEnd = (extra = 0) => Date.now() + t.env.PAYMENT_LINK_TTL_MINUTES * MINUTE + EXPIRY_GRACE_MS + MINUTE + extra;

describe('payment links expire', () => {
  it('asks payOS for a link that ends after PAYMENT_LINK_TTL_MINUTES', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { link } = await openOrder();
    expect(link.expiredAt).toBeGreaterThanOrEqual(before + t.env.PAYMENT_LINK_TTL_MINUTES * 60 - 1);
    expect(link.expiredAt).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + t.env.PAYMENT_LINK_TTL_MINUTES * 60);
  });

  it('the sandbox reports a link past its end as EXPIRED and will not take money for it', async () => {
    const { link, orderCode } = await openOrder();
    link.expiredAt = Math.floor(Date.now() / 1000) - 1;
    await saveLink(t.db, t.env, link);
    const info = await fetch(`${sandbox()}/v2/payment-requests/${orderCode}`, {
      headers: { 'x-client-id': SANDBOX_CREDS.clientId, 'x-api-key': SANDBOX_CREDS.apiKey },
    });
    expect(((await info.json()) as { data: { status: string } }).data.status).toBe('EXPIRED');
    const pay = await pressCheckout(t, server.url, link.id);
    expect(pay.status).toBe(303);
    // The link as the sandbox now holds it (it is stored, not this object).
    const now = (await findLink(t.db, t.env, link.id, server.url))!;
    expect(now.status).toBe('EXPIRED');
    expect(now.transactions).toEqual([]);
    expect((await order(orderCode)).status).toBe('PENDING');
  });
});

describe('expireStaleOrders', () => {
  it('leaves orders whose link is still running', async () => {
    const { orderCode } = await openOrder();
    await expireStaleOrders({ db: t.db, env: t.env }, sandbox(), Date.now() + 5 * MINUTE);
    expect((await order(orderCode)).status).toBe('PENDING');
  });

  it('closes an order payOS reports expired; the member may pay again with a new link', async () => {
    const { link, orderCode, assignment } = await openOrder();
    link.expiredAt = Math.floor(Date.now() / 1000) - 1;
    await saveLink(t.db, t.env, link);
    const report = await expireStaleOrders({ db: t.db, env: t.env }, sandbox(), afterLinkEnd());
    expect(report.closed).toBeGreaterThanOrEqual(1);
    expect(await order(orderCode)).toMatchObject({ status: 'EXPIRED' });
    expect((await order(orderCode)).cancelledAt).not.toBeNull();
    expect(await assignmentStatus(assignment.id)).toBe('PENDING');
  });

  it('settles an order paid at payOS whose webhook never arrived', async () => {
    const { link, orderCode, assignment } = await openOrder();
    link.status = 'PAID';
    link.transactions.push({
      reference: `LOST${orderCode}`,
      amount: link.amount,
      accountNumber: '1',
      description: 'x',
      transactionDateTime: '2026-11-23 10:00:00',
    });
    await saveLink(t.db, t.env, link);
    const report = await expireStaleOrders({ db: t.db, env: t.env }, sandbox(), afterLinkEnd());
    expect(report.paid).toBeGreaterThanOrEqual(1);
    expect((await order(orderCode)).status).toBe('PAID');
    expect(await assignmentStatus(assignment.id)).toBe('PAID');
  });

  it('keeps an order while payOS cannot be asked, expires it after a day, and a late paid webhook still counts', async () => {
    const { orderCode, assignment } = await openOrder();
    const unreachable = 'http://127.0.0.1:9';
    await expireStaleOrders({ db: t.db, env: t.env }, unreachable, afterLinkEnd());
    expect((await order(orderCode)).status).toBe('PENDING');

    const report = await expireStaleOrders({ db: t.db, env: t.env }, unreachable, afterLinkEnd(GIVE_UP_MS));
    expect(report.expiredHere).toBeGreaterThanOrEqual(1);
    expect((await order(orderCode)).status).toBe('EXPIRED');
    const o = await order(orderCode);
    const expiredAudit = await firstRow(
      t.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'payment.expire'), eq(auditLogs.entityId, String(o.id)))),
    );
    expect(expiredAudit).toBeDefined();

    // The member had paid after all: payOS's webhook arrives late and the money is recorded.
    const data = {
      orderCode,
      amount: o.amount,
      description: 'late',
      accountNumber: '1',
      reference: `LATE${orderCode}`,
      transactionDateTime: '2026-11-24 10:00:00',
      currency: 'VND',
      paymentLinkId: o.paymentLinkId,
      code: '00',
      desc: 'success',
    };
    const hook = await t.request('POST', '/api/payment/webhook/payos', {
      body: { code: '00', desc: 'success', success: true, data, signature: dataSignature(data, SANDBOX_CREDS.checksumKey) },
    });
    expect(hook.status).toBe(200);
    expect((await order(orderCode)).status).toBe('PAID');
    expect(await assignmentStatus(assignment.id)).toBe('PAID');
  });
});
