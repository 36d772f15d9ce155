import { formatVnd } from '@doanhoi/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { expectOk, join, sandboxApp, SANDBOX_CREDS, type campaigns, type LiveServer } from '../payments/fixture';
import { paymentAssignments, paymentOrders, paymentTransactions } from '../db/tables/payments';
import { paymentRequestSignature } from '../payos/signature';
import type { TestApp } from '../test/harness';
import { pressCheckout } from './fixture';
import { NOT_YOURS } from './payer';
import { forgetLinks } from './state';
import { allRows, firstRow } from '../db/engine';

let t: TestApp;
let server: LiveServer;
let api: ReturnType<typeof campaigns>;
let org: number;
let n = 0;

beforeAll(async () => {
  ({ t, server, api, org } = await sandboxApp('SB', { PAYOS_SANDBOX_WEBHOOK_DELAY_MS: '300' }));
});
afterAll(() => server.close());

/** A member with a PENDING fee in an ACTIVE campaign configured for the sandbox, and a fresh payment link. */
async function linked(amount = 85_000) {
  const u = await t.createUser(`SBU${++n}`);
  await join(t, u.id, org);
  const { assignments } = await api.active(org, [u.id], { amount });
  const assignmentId = assignments[0].id as number;
  const res = await expectOk(t.request('POST', '/api/payment/create-payment-link', { token: u.token, body: { assignmentId, amount: 1 } }));
  return { u, assignmentId, ...(res.data as { checkoutUrl: string; orderCode: number; paymentLinkId: string }) };
}

async function eventually(ok: () => Promise<boolean>, ms = 5_000) {
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const orderRow = async (orderCode: number) =>
  (await firstRow(t.db.select().from(paymentOrders).where(eq(paymentOrders.orderCode, orderCode))))!;
const assignmentRow = async (id: number) => (await firstRow(t.db.select().from(paymentAssignments).where(eq(paymentAssignments.id, id))))!;

describe('payOS sandbox end to end', () => {
  it('create link → checkout page → pay → signed webhook over HTTP → order and assignment PAID → check-status PAID', async () => {
    const { u, assignmentId, checkoutUrl, orderCode, paymentLinkId } = await linked(85_000);
    expect(checkoutUrl).toBe(`${server.url}/sandbox/payos/checkout/${paymentLinkId}`);

    const page = await fetch(checkoutUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('lang="vi"');
    expect(html).toContain(formatVnd(85_000));
    // The transfer note fits 9 characters by default (issue 11.7), and the page has no inline style or script (CSP).
    expect(html).toContain(`DH${String(orderCode).slice(-7)}`);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)|<style|style=/);
    expect(html).toContain('/sandbox/payos/checkout.js');
    expect((await fetch(`${server.url}/sandbox/payos/checkout.js`)).headers.get('content-type')).toContain('javascript');
    expect(html).toContain('/sandbox/payos/checkout.css');
    expect((await fetch(`${server.url}/sandbox/payos/checkout.css`)).headers.get('content-type')).toContain('text/css');
    expect(html).toContain('<svg');
    expect(html).toContain('>Thanh toán</button>');
    expect(html).toContain('>Hủy</button>');

    const paid = await pressCheckout(t, server.url, paymentLinkId, { token: u.token });
    expect(paid.status).toBe(303);
    const back = new URL(paid.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(`${server.url}/payment-result/${orderCode}`);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({
      code: '00',
      status: 'PAID',
      cancel: 'false',
      orderCode: String(orderCode),
      id: paymentLinkId,
    });

    // As with payOS, the webhook follows the redirect a moment later.
    expect((await orderRow(orderCode)).status).toBe('PENDING');
    await eventually(async () => (await orderRow(orderCode)).status === 'PAID');
    expect(await assignmentRow(assignmentId)).toMatchObject({ status: 'PAID', paidAmount: 85_000, paymentMethod: 'ONLINE' });
    expect(
      await firstRow(
        t.db
          .select()
          .from(auditLogs)
          .where(and(eq(auditLogs.action, 'payment.webhook'), eq(auditLogs.entityId, String((await orderRow(orderCode)).id)))),
      ),
    ).toBeTruthy();

    const status = await expectOk(t.request('GET', `/api/payment/check-status/${orderCode}`, { token: u.token }));
    expect(status.data).toMatchObject({ orderCode, amount: 85_000, status: 'PAID' });
    expect(status.data.transactions).toHaveLength(1);
    expect(status.data.transactions[0]).toMatchObject({
      amount: 85_000,
      accountNumber: expect.any(String),
      transactionDateTime: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });

    // The page of a paid link offers no button any more.
    const after = await (await fetch(checkoutUrl)).text();
    expect(after).toContain('đã được thanh toán');
    expect(after).not.toContain('>Thanh toán</button>');
  });

  it('Cancel redirects to the cancelUrl and check-status then reports CANCELLED', async () => {
    const { u, orderCode, paymentLinkId, assignmentId } = await linked();
    const res = await pressCheckout(t, server.url, paymentLinkId, { action: 'cancel', token: u.token });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!);
    expect(back.pathname).toBe(`/payment-result/${orderCode}`);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ status: 'CANCELLED', cancel: 'true', orderCode: String(orderCode) });
    expect((await orderRow(orderCode)).status).toBe('PENDING');
    const status = await expectOk(t.request('GET', `/api/payment/check-status/${orderCode}`, { token: u.token }));
    expect(status.data.status).toBe('CANCELLED');
    expect((await assignmentRow(assignmentId)).status).toBe('PENDING');
  });

  it('a lost webhook is recovered by check-status, and links survive a restart (rebuilt from payment_orders)', async () => {
    const { u, orderCode, paymentLinkId, assignmentId } = await linked(20_000);
    await forgetLinks(t.db);
    expect((await fetch(`${server.url}/sandbox/payos/checkout/${paymentLinkId}`)).status).toBe(200);
    t.env.PUBLIC_URL = 'http://127.0.0.1:9';
    try {
      const res = await pressCheckout(t, server.url, paymentLinkId, { token: u.token });
      expect(res.status).toBe(303);
    } finally {
      t.env.PUBLIC_URL = server.url;
    }
    expect((await orderRow(orderCode)).status).toBe('PENDING');
    const status = await expectOk(t.request('GET', `/api/payment/check-status/${orderCode}`, { token: u.token }));
    expect(status.data.status).toBe('PAID');
    expect((await assignmentRow(assignmentId)).status).toBe('PAID');
    expect(
      await allRows(
        t.db
          .select()
          .from(paymentTransactions)
          .where(eq(paymentTransactions.orderId, (await orderRow(orderCode)).id)),
      ),
    ).toHaveLength(1);
  });

  it('checks payOS headers and signatures like payOS', async () => {
    const endpoint = `${server.url}/sandbox/payos/v2/payment-requests`;
    const fields = { orderCode: 424242, amount: 1000, description: 'Don thu', returnUrl: `${server.url}/r`, cancelUrl: `${server.url}/c` };
    const post = (headers: Record<string, string>, body: unknown) =>
      fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const creds = { 'x-client-id': SANDBOX_CREDS.clientId, 'x-api-key': SANDBOX_CREDS.apiKey };
    const signed = { ...fields, signature: paymentRequestSignature(fields, SANDBOX_CREDS.checksumKey) };
    expect((await post({}, signed)).status).toBe(401);
    // Like payOS: wrong credentials get HTTP 200 with a non-"00" code.
    const wrong = await post({ ...creds, 'x-api-key': 'wrong' }, signed);
    expect(wrong.status).toBe(200);
    expect(await wrong.json()).toMatchObject({ code: '201', data: null });
    const badSig = await post(creds, { ...signed, amount: 999 });
    expect(badSig.status).toBe(400);
    expect(await badSig.json()).toMatchObject({ code: '20', data: null });
    const long = { ...fields, description: 'x'.repeat(10) };
    expect((await post(creds, { ...long, signature: paymentRequestSignature(long, SANDBOX_CREDS.checksumKey) })).status).toBe(400);
    const ok = await post(creds, signed);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      code: '00',
      data: { orderCode: 424242, amount: 1000, status: 'PENDING' },
      signature: expect.any(String),
    });
    expect(await (await post(creds, signed)).json()).toMatchObject({ code: '231' });
    expect((await fetch(`${server.url}/sandbox/payos/checkout/unknown-link`)).status).toBe(404);
  });
});

describe("only the order's owner, signed in, moves sandbox money (issue 25.2)", () => {
  it('refuses pay and cancel without a session (401) and from anyone else, an admin included (403); nothing moves', async () => {
    const { u, orderCode, paymentLinkId, assignmentId } = await linked(30_000);
    const other = await t.createUser(`SBX${++n}`);
    for (const action of ['pay', 'cancel'] as const) {
      const anonymous = await pressCheckout(t, server.url, paymentLinkId, { action, token: null });
      expect(anonymous.status).toBe(401);
      expect(((await anonymous.json()) as { message: string }).message).toBe('Chưa đăng nhập hoặc phiên đăng nhập đã hết hạn');
      for (const token of [other.token, t.adminToken, 'not-a-token']) {
        const res = await pressCheckout(t, server.url, paymentLinkId, { action, token });
        expect(res.status).toBe(token === 'not-a-token' ? 401 : 403);
        if (res.status === 403) expect(((await res.json()) as { message: string }).message).toBe(NOT_YOURS);
      }
    }
    const again = await pressCheckout(t, server.url, paymentLinkId, { mode: 'under', token: other.token });
    expect(again.status).toBe(403);
    // Nothing was paid or cancelled: no webhook comes, payOS still reports the link open.
    await new Promise((r) => setTimeout(r, 500));
    expect((await orderRow(orderCode)).status).toBe('PENDING');
    expect((await assignmentRow(assignmentId)).status).toBe('PENDING');
    const status = await expectOk(t.request('GET', `/api/payment/check-status/${orderCode}`, { token: u.token }));
    expect(status.data).toMatchObject({ status: 'PENDING', receivedAmount: 0 });
  });

  it("the owner's page script gets JSON naming the result page; the default webhook flow then settles the fee", async () => {
    const { u, orderCode, paymentLinkId, assignmentId } = await linked(40_000);
    const res = await fetch(`${server.url}/sandbox/payos/checkout/${paymentLinkId}/pay`, {
      method: 'POST',
      headers: { accept: 'application/json', authorization: `Bearer ${u.token}` },
      body: new URLSearchParams(),
    });
    expect(res.status).toBe(200);
    const { redirectTo } = (await res.json()) as { redirectTo: string };
    expect(new URL(redirectTo).pathname).toBe(`/payment-result/${orderCode}`);
    await eventually(async () => (await assignmentRow(assignmentId)).status === 'PAID');
  });
});
