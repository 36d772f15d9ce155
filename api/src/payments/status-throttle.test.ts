/**
 * Rate limit on status checks (probe of issues 10/11): a member polling check-status in a loop, or
 * many at once, must not turn each request into a payOS call on the organization's credentials.
 * One payOS call per order per STATUS_CHECK_INTERVAL_MS, parallel checks share it; the answer is
 * still the order as the database knows it (a webhook that settled it meanwhile shows at once).
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestApp } from '../test/harness';
import { expectOk, join, sandboxApp, type campaigns, type LiveServer } from './fixture';
import { paymentOrders } from '../db/tables/payments';
import { runQuery } from '../db/engine';

let t: TestApp;
let server: LiveServer;
let api: ReturnType<typeof campaigns>;
let org: number;
let n = 0;

beforeAll(async () => {
  ({ t, server, api, org } = await sandboxApp('STT'));
});
afterAll(() => server.close());
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function pendingOrder() {
  const u = await t.createUser(`STT${++n}`);
  await join(t, u.id, org);
  const { assignments } = await api.active(org, [u.id]);
  const { data } = await expectOk(
    t.request('POST', '/api/payment/create-payment-link', {
      token: u.token,
      body: { assignmentId: (assignments[0] as { id: number }).id },
    }),
  );
  return { u, orderCode: data.orderCode as number };
}

/** Counts the payOS status look-ups (GET …/v2/payment-requests/{orderCode}) made while `run` runs. */
async function payosLookups(orderCode: number, run: () => Promise<unknown>) {
  const real = globalThis.fetch;
  let calls = 0;
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if ((init?.method ?? 'GET') === 'GET' && url.endsWith(`/v2/payment-requests/${orderCode}`)) calls++;
    return real(input, init);
  });
  await run();
  return calls;
}

describe('check-status reaches payOS at most once per order per interval', () => {
  it('20 parallel checks and 10 more right after make one payOS call; all answer 200 with the order', async () => {
    const { u, orderCode } = await pendingOrder();
    // The clock stands still (Date only), so "right after" is inside the interval however loaded the machine is.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const calls = await payosLookups(orderCode, async () => {
      const burst = await Promise.all(
        Array.from({ length: 20 }, () => t.request('GET', `/api/payment/check-status/${orderCode}`, { token: u.token })),
      );
      expect(burst.every((r) => r.status === 200 && r.body.data.status === 'PENDING')).toBe(true);
      for (let i = 0; i < 10; i++)
        expect((await t.request('GET', `/api/payment/check-status/${orderCode}`, { token: u.token })).status).toBe(200);
    });
    expect(calls).toBe(1);
  });

  it('inside the interval the answer is the database’s: a settlement that arrived meanwhile shows', async () => {
    const { u, orderCode } = await pendingOrder();
    expect((await t.request('GET', `/api/payment/check-status/${orderCode}`, { token: u.token })).body.data.status).toBe('PENDING');
    await runQuery(t.db.update(paymentOrders).set({ status: 'CANCELLED' }).where(eq(paymentOrders.orderCode, orderCode)));
    expect((await t.request('GET', `/api/payment/check-status/${orderCode}`, { token: u.token })).body.data.status).toBe('CANCELLED');
  });
});
