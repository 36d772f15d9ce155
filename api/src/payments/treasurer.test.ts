/**
 * Issue 26 item 9 through the API, as a treasurer reads it: the export reconciles money received
 * and refunds, a waived balance is a reduction, test money tells one story, money after an
 * exemption says so, and failed or stuck payOS links do not stay pending for a day.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, readWorkbook, sheetRows } from '../imports/fixture';
import { dataSignature } from '../payos/signature';
import { findLink, saveLink } from '../payos-sandbox/state';
import { pressCheckout } from '../payos-sandbox/fixture';
import type { TestApp } from '../test/harness';
import { EXPIRY_GRACE_MS, expireStaleOrders, PROCESSING_GIVE_UP_MS } from './expiry';
import { expectOk, join, sandboxApp, SANDBOX_CREDS, type campaigns, type LiveServer } from './fixture';
import { paymentAssignments, paymentOrders } from '../db/tables/payments';
import { firstRow, runQuery } from '../db/engine';

let t: TestApp;
let api: ReturnType<typeof campaigns>;
let server: LiveServer;
let org: number;
let n = 0;

beforeAll(async () => {
  ({ t, server, api, org } = await sandboxApp('TRS', { PAYOS_SANDBOX_WEBHOOK_DELAY_MS: '50', EXPORT_RATE_LIMIT: '1000' }));
});
afterAll(() => server.close());

async function member() {
  const code = `TRSU${++n}`;
  const u = await t.createUser(code);
  await join(t, u.id, org);
  return { ...u, code };
}
const link = async (token: string, assignmentId: number) =>
  (await expectOk(t.request('POST', '/api/payment/create-payment-link', { token, body: { assignmentId } }))).data;
const order = async (orderCode: number) =>
  (await firstRow(t.db.select().from(paymentOrders).where(eq(paymentOrders.orderCode, orderCode))))!;
const assignment = async (id: number) => (await firstRow(t.db.select().from(paymentAssignments).where(eq(paymentAssignments.id, id))))!;
const stats = async (campaignId: number) =>
  expectOk(t.request('GET', `/api/payment-campaigns/${campaignId}/statistics`, { token: t.adminToken }));
/** This order stands for one made at the real payOS (statistics and the export count real money only). */
const real = async (orderCode: number) =>
  await runQuery(t.db.update(paymentOrders).set({ isTest: false }).where(eq(paymentOrders.orderCode, orderCode)));

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

const FIELDS = [
  'memberCode',
  'amount',
  'status',
  'paidAmount',
  'adjustment',
  'originalAmount',
  'waivedAmount',
  'receivedAmount',
  'refundDue',
  'refunded',
  'moneyNotes',
  'testAmount',
];
/** The export as the treasurer opens it: header → cell, one object per member code. */
async function exported(campaignId: number): Promise<Map<string, Record<string, unknown>>> {
  const res = await download(t, 'POST', `/api/export/payment-assignments/${campaignId}`, t.adminToken, { fields: FIELDS, format: 'xlsx' });
  expect(res.status).toBe(200);
  const rows = sheetRows((await readWorkbook(res.buf)).worksheets[0]!);
  const header = rows[0] as string[];
  return new Map(rows.slice(1).map((r) => [String(r[0]), Object.fromEntries(header.map((h, i) => [h, r[i] ?? null]))]));
}

describe('the campaign export reconciles with the bank', () => {
  it('shows money received, refunds due and refunded, with the reason and order code', async () => {
    const a = await member();
    const b = await member();
    const { campaign, assignments } = await api.active(org, [a.id, b.id], { amount: 100_000 });
    const la = await link(a.token, assignments[0].id);
    await real(la.orderCode);
    await expectOk(webhook(la.orderCode, 100_000));
    // The same member's bank sends 60.000 ₫ more on the paid order: a duplicate.
    await expectOk(webhook(la.orderCode, 60_000));
    expect(await order(la.orderCode)).toMatchObject({ attention: 'REFUND_DUE', attentionReason: 'DUPLICATE', attentionAmount: 60_000 });
    const rows = await exported(campaign.id);
    expect(rows.get(a.code)).toMatchObject({
      'Số tiền đã nộp (VND)': 100_000,
      'Tiền đã nhận (VND)': 160_000,
      'Cần hoàn trả (VND)': 60_000,
    });
    expect(String(rows.get(a.code)!['Tiền cần xử lý (hoàn/trùng/thừa)'])).toContain(
      `Cần hoàn 60.000 ₫ (thanh toán trùng, #${la.orderCode})`,
    );
    expect(rows.get(b.code)).toMatchObject({ 'Tiền đã nhận (VND)': 0, 'Cần hoàn trả (VND)': null });

    await expectOk(
      t.request('POST', `/api/payment-admin/orders/${(await order(la.orderCode)).id}/resolve`, {
        token: t.adminToken,
        body: { resolution: 'REFUNDED', note: 'Đã chuyển lại' },
      }),
    );
    const after = (await exported(campaign.id)).get(a.code)!;
    expect(after).toMatchObject({ 'Cần hoàn trả (VND)': null, 'Đã hoàn trả (VND)': 60_000 });
    expect(String(after['Tiền cần xử lý (hoàn/trùng/thừa)'])).toContain('Đã hoàn 60.000 ₫ (thanh toán trùng');
  });

  it("a cancelled campaign's late money is in the file as money to refund", async () => {
    const a = await member();
    const { campaign, assignments } = await api.active(org, [a.id], { amount: 70_000 });
    const l = await link(a.token, assignments[0].id);
    await real(l.orderCode);
    await expectOk(t.request('POST', `/api/payment-campaigns/${campaign.id}/cancel`, { token: t.adminToken }));
    await expectOk(webhook(l.orderCode, 70_000));
    const row = (await exported(campaign.id)).get(a.code)!;
    expect(row).toMatchObject({ 'Tiền đã nhận (VND)': 70_000, 'Cần hoàn trả (VND)': 70_000 });
    expect(String(row['Tiền cần xử lý (hoàn/trùng/thừa)'])).toContain('tiền đến sau khi đợt thu đóng');
  });
});

describe('a waived balance is a reduction, not a new fee', () => {
  it('keeps the fee before it and reads as "giảm" in statistics, export and the member view', async () => {
    const a = await member();
    const { campaign, assignments } = await api.active(org, [a.id], { amount: 100_000 });
    const id = assignments[0].id as number;
    const l = await link(a.token, id);
    await real(l.orderCode);
    await expectOk(webhook(l.orderCode, 70_000));
    await expectOk(
      t.request('POST', `/api/payment-admin/orders/${(await order(l.orderCode)).id}/resolve`, {
        token: t.adminToken,
        body: { resolution: 'ACCEPTED', note: 'Hoàn cảnh khó khăn' },
      }),
    );
    expect(await assignment(id)).toMatchObject({
      status: 'PAID',
      amount: 70_000,
      originalAmount: 100_000,
      adjustment: 'REDUCED',
      adjustmentReason: 'Miễn phần còn thiếu: Hoàn cảnh khó khăn',
    });
    expect(await stats(campaign.id)).toMatchObject({
      reducedCount: 1,
      waivedAmount: 30_000,
      totalExpected: 70_000,
      collected: 70_000,
      paidCount: 1,
    });
    expect((await exported(campaign.id)).get(a.code)).toMatchObject({
      'Miễn/giảm': 'Giảm',
      'Số tiền gốc (VND)': 100_000,
      'Số tiền được miễn/giảm (VND)': 30_000,
      'Số tiền (VND)': 70_000,
    });
    const mine = await expectOk(t.request('GET', `/api/payment/assignments/${id}`, { token: a.token }));
    expect(mine.data).toMatchObject({ amount: 70_000, originalAmount: 100_000, adjustment: 'REDUCED' });
  });
});

describe('test money tells one story', () => {
  it('a fee settled by sandbox money is counted as a test, neither paid nor collected', async () => {
    const a = await member();
    const b = await member();
    const { campaign, assignments } = await api.active(org, [a.id, b.id], { amount: 100_000 });
    const l = await link(a.token, assignments[0].id);
    expect((await pressCheckout(t, server.url, l.paymentLinkId)).status).toBe(303);
    for (let i = 0; i < 200 && (await assignment(assignments[0].id)).status !== 'PAID'; i++) await new Promise((r) => setTimeout(r, 25));
    expect(await assignment(assignments[0].id)).toMatchObject({ status: 'PAID', isTestPayment: true });
    expect(await stats(campaign.id)).toMatchObject({
      paidCount: 0,
      testPaidCount: 1,
      collected: 0,
      uncollected: 200_000,
      testReceived: 100_000,
      pendingCount: 1,
    });
    expect((await stats(campaign.id)).byFeeLevel[0]).toMatchObject({ count: 2, paidCount: 0 });
    // Cash is real money: paid and collected agree.
    await expectOk(
      t.request('PATCH', `/api/payment/assignments/${assignments[1].id}/mark-paid`, { token: t.adminToken, body: { method: 'cash' } }),
    );
    expect(await stats(campaign.id)).toMatchObject({ paidCount: 1, testPaidCount: 1, collected: 100_000 });
    expect((await exported(campaign.id)).get(a.code)).toMatchObject({ 'Tiền đã nhận (VND)': 0, 'Tiền thử nghiệm (sandbox, VND)': 100_000 });
  });
});

describe('money after an exemption', () => {
  it('is flagged as money after the exemption, not as a fee paid before', async () => {
    const a = await member();
    const { assignments } = await api.active(org, [a.id], { amount: 100_000 });
    const id = assignments[0].id as number;
    const l = await link(a.token, id);
    await real(l.orderCode);
    await expectOk(t.request('POST', `/api/payment/assignments/${id}/exempt`, { token: t.adminToken, body: { reason: 'Hộ nghèo' } }));
    await expectOk(webhook(l.orderCode, 100_000));
    expect(await order(l.orderCode)).toMatchObject({
      attention: 'REFUND_DUE',
      attentionReason: 'AFTER_EXEMPTION',
      attentionAmount: 100_000,
    });
    const seen = await expectOk(t.request('GET', `/api/payment/check-status/${l.orderCode}`, { token: a.token }));
    expect(seen.data).toMatchObject({ attentionReason: 'AFTER_EXEMPTION', outcome: { refundDue: 100_000, stillDue: 0 } });
  });
});

describe('links payOS calls FAILED or PROCESSING', () => {
  const MINUTE = 60_000;
  it('a FAILED link closes at the next status check, so the member can pay again at once', async () => {
    const a = await member();
    const { assignments } = await api.active(org, [a.id], { amount: 40_000 });
    const l = await link(a.token, assignments[0].id);
    await saveLink(t.db, t.env, { ...(await findLink(t.db, t.env, String(l.orderCode), server.url))!, status: 'FAILED' });
    const checked = await expectOk(t.request('GET', `/api/payment/check-status/${l.orderCode}`, { token: a.token }));
    expect(checked.data.status).toBe('CANCELLED');
    const again = await link(a.token, assignments[0].id);
    expect(again.orderCode).not.toBe(l.orderCode);
  });

  it('a link stuck in PROCESSING is closed half an hour after its end, not after a day', async () => {
    const a = await member();
    const { assignments } = await api.active(org, [a.id], { amount: 40_000 });
    const l = await link(a.token, assignments[0].id);
    await saveLink(t.db, t.env, { ...(await findLink(t.db, t.env, String(l.orderCode), server.url))!, status: 'PROCESSING' });
    const ttl = t.env.PAYMENT_LINK_TTL_MINUTES * MINUTE;
    await expireStaleOrders({ db: t.db, env: t.env }, `${server.url}/sandbox/payos`, Date.now() + ttl + EXPIRY_GRACE_MS + MINUTE);
    expect((await order(l.orderCode)).status).toBe('PENDING');
    const report = await expireStaleOrders(
      { db: t.db, env: t.env },
      `${server.url}/sandbox/payos`,
      Date.now() + ttl + PROCESSING_GIVE_UP_MS + MINUTE,
    );
    expect(report.expiredHere).toBeGreaterThanOrEqual(1);
    expect((await order(l.orderCode)).status).toBe('EXPIRED');
  });
});
