import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { dataSignature } from '../payos/signature';
import { makeTestApp, type TestApp } from '../test/harness';
import { campaigns, expectOk, join, liveServer, SANDBOX_CREDS } from './fixture';
import { paymentOrders } from '../db/tables/payments';
import { WEBHOOK_REJECTIONS_PER_WINDOW } from './webhook.service';
import { firstRow } from '../db/engine';

let t: TestApp;
let server: Awaited<ReturnType<typeof liveServer>>;

beforeAll(async () => {
  // Behind a proxy, so each test request can say which address it comes from.
  t = await makeTestApp({ TRUST_PROXY: 'true' });
  server = await liveServer(t);
});
afterAll(() => server.close());

const audits = async (action: string) =>
  (await firstRow(t.db.select({ n: count() }).from(auditLogs).where(eq(auditLogs.action, action))))!.n;

async function webhook(orderCode: number, key: string) {
  const o = (await firstRow(t.db.select().from(paymentOrders).where(eq(paymentOrders.orderCode, orderCode))))!;
  const data = {
    orderCode,
    amount: o.amount,
    description: 'x',
    accountNumber: '1',
    reference: `FT${orderCode}`,
    transactionDateTime: '2026-11-23 10:00:00',
    currency: 'VND',
    paymentLinkId: o.paymentLinkId,
    code: '00',
    desc: 'success',
  };
  return { code: '00', desc: 'success', success: true, data, signature: dataSignature(data, key) };
}
const send = (body: unknown, ip: string) => t.request('POST', '/api/payment/webhook/payos', { body, headers: { 'x-forwarded-for': ip } });

describe('forged webhooks from one address', () => {
  it('are audited up to the limit, then answered 429 without filling the audit log; genuine ones still settle', async () => {
    const org = await t.createOrg('doan_co_so', 'WHT');
    const u = await t.createUser('WHTU');
    await join(t, u.id, org);
    const { assignments } = await campaigns(t).active(org, [u.id], { amount: 30_000 });
    const created = await expectOk(
      t.request('POST', '/api/payment/create-payment-link', {
        token: u.token,
        body: { assignmentId: (assignments[0] as { id: number }).id },
      }),
    );
    const orderCode = created.data.orderCode as number;
    const forged = await webhook(orderCode, 'not-the-checksum-key');

    const rejectedBefore = await audits('payment.webhook_rejected');
    for (let i = 0; i < WEBHOOK_REJECTIONS_PER_WINDOW; i++) expect((await send(forged, '203.0.113.9')).status).toBe(400);
    expect(await audits('payment.webhook_rejected')).toBe(rejectedBefore + WEBHOOK_REJECTIONS_PER_WINDOW);

    const over = await send(forged, '203.0.113.9');
    expect(over.status).toBe(429);
    expect(over.body.message).toBeTruthy();
    expect((await send(forged, '203.0.113.9')).status).toBe(429);
    expect(await audits('payment.webhook_rejected')).toBe(rejectedBefore + WEBHOOK_REJECTIONS_PER_WINDOW);
    expect(await audits('payment.webhook_throttled')).toBe(1);
    const throttled = (await firstRow(
      t.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'payment.webhook_throttled'))),
    ))!;
    expect(throttled.ip).toBe('203.0.113.9');

    // Another address is not affected, and a correctly signed webhook from the flooded one is applied.
    expect((await send(forged, '198.51.100.7')).status).toBe(400);
    expect((await send(await webhook(orderCode, SANDBOX_CREDS.checksumKey), '203.0.113.9')).status).toBe(200);
    expect((await firstRow(t.db.select().from(paymentOrders).where(eq(paymentOrders.orderCode, orderCode))))!.status).toBe('PAID');
  });
});
