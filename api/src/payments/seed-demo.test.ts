import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../seed/seed-demo';
import { seedPaymentsDemo } from '../seed/seed-payments-demo';
import { organizations } from '../db/tables/organizations';
import { makeTestApp, type TestApp } from '../test/harness';
import { expectOk, liveServer } from './fixture';
import { paymentCampaigns } from '../db/tables/payments';
import { pressCheckout } from '../payos-sandbox/fixture';
import { allRows, firstRow } from '../db/engine';

let t: TestApp;
let server: Awaited<ReturnType<typeof liveServer>>;

// The demo's thousands of rows take a few seconds on PostgreSQL, more beside other test files.
beforeAll(async () => {
  t = await makeTestApp();
  server = await liveServer(t);
  await seedDemo(t.db);
}, 60_000);
afterAll(() => server.close());

describe('seedPaymentsDemo', () => {
  it('seeds an ACTIVE campaign of DCS-CNTT once, that the demo member can pay end to end in the sandbox', async () => {
    expect(await seedPaymentsDemo(t.db, t.env)).toBe(true);
    expect(await seedPaymentsDemo(t.db, t.env)).toBe(false);
    const rows = await allRows(t.db.select().from(paymentCampaigns));
    expect(rows.map((c) => c.status).sort()).toEqual(['ACTIVE', 'DRAFT']);
    const org = (await firstRow(t.db.select().from(organizations).where(eq(organizations.id, rows[0]!.organizationId))))!;
    expect(org.code).toBe('DCS-CNTT');

    const active = rows.find((c) => c.status === 'ACTIVE')!;
    const detail = await expectOk(t.request('GET', `/api/payment-campaigns/${active.id}`, { token: t.adminToken }));
    expect(detail.feeLevels).toHaveLength(2);
    const stats = await expectOk(t.request('GET', `/api/payment-campaigns/${active.id}/statistics`, { token: t.adminToken }));
    expect(stats.paidCount).toBeGreaterThan(0);
    expect(stats.pendingCount).toBeGreaterThan(0);

    const { accessToken } = await t.login('member@doanhoi.local', 'member123');
    const mine = await expectOk(t.request('GET', '/api/payment/assignments/my-assignments', { token: accessToken }));
    const fee = mine.data.assignments.find((a: { campaignId: number }) => a.campaignId === active.id);
    expect(fee).toMatchObject({ status: 'PENDING', canPay: true });
    const link = await expectOk(
      t.request('POST', '/api/payment/create-payment-link', { token: accessToken, body: { assignmentId: fee.id } }),
    );
    const paid = await pressCheckout(t, server.url, link.data.paymentLinkId, { token: accessToken });
    expect(paid.status).toBe(303);
    const status = await expectOk(t.request('GET', `/api/payment/check-status/${link.data.orderCode}`, { token: accessToken }));
    expect(status.data.status).toBe('PAID');
  });
});
