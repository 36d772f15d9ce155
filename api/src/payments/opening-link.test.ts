/**
 * An order whose link a dead process was opening (kill -9 of a worker between the order's insert
 * and payOS's answer) does not hold the member's retry for 20 s: the retry closes it and opens a
 * new link at once (orders.service.ts stillOpening). A live opener is still waited for.
 */
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStandIn, type StandIn } from '../payos-sandbox/stand-in';
import { makeTestApp, type TestApp } from '../test/harness';
import { campaigns, expectOk, join, SANDBOX_CREDS } from './fixture';
import { paymentOrders } from '../db/tables/payments';
import { allRows, firstRow, runQuery } from '../db/engine';
import { newOrderCode } from './order-code';
import { THIS_PROCESS } from '../lib/lease';

let t: TestApp;
let payos: StandIn;
let org: number;
let n = 0;

beforeAll(async () => {
  payos = await startStandIn({ latencyMs: 0 });
  payos.addMerchant(SANDBOX_CREDS);
  t = await makeTestApp({ PAYOS_BASE_URL: payos.url });
  org = await t.createOrg('doan_co_so', 'OPEN');
});
afterAll(() => payos.close());

/** A member's fee with an order left half-open by `openedBy`: no link yet, created just now. */
async function halfOpened(openedBy: string) {
  const u = await t.createUser(`OPEN${++n}`);
  await join(t, u.id, org);
  const { campaign, assignments } = await campaigns(t).active(org, [u.id], { amount: 24_000 });
  const assignmentId = assignments[0].id as number;
  const stale = await firstRow(
    t.db
      .insert(paymentOrders)
      .values({
        orderCode: await newOrderCode(t.db),
        assignmentId,
        campaignId: campaign.id as number,
        userId: u.id,
        amount: 24_000,
        description: 'Thanh toán',
        status: 'PENDING',
        paymentMethod: 'ONLINE',
        openedBy,
      })
      .returning(),
  );
  return { u, assignmentId, stale: stale! };
}

const createLink = (token: string, assignmentId: number) =>
  t.request('POST', '/api/payment/create-payment-link', { token, body: { assignmentId } });

describe('a link left half-open', () => {
  it('by a process that is gone: the retry gets a new link at once and the old order is cancelled', async () => {
    // A pid that ran and exited: nothing answers to it now.
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    const { u, assignmentId, stale } = await halfOpened(`${hostname()}:${gone}`);
    const started = Date.now();
    const link = (await expectOk(createLink(u.token, assignmentId))).data;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(link.orderCode).not.toBe(stale.orderCode);
    expect(link.checkoutUrl).toBeTruthy();
    const orders = await allRows(t.db.select().from(paymentOrders).where(eq(paymentOrders.assignmentId, assignmentId)));
    expect(orders.find((o) => o.id === stale.id)!.status).toBe('CANCELLED');
    // The new order names who opened it.
    expect(orders.find((o) => o.orderCode === link.orderCode)!.openedBy).toBe(THIS_PROCESS);
  });

  it('by a live process: the retry waits for it, and hands out its link once it is there', async () => {
    const { u, assignmentId, stale } = await halfOpened(`${hostname()}:${process.ppid}`);
    const retry = createLink(u.token, assignmentId);
    await new Promise((r) => setTimeout(r, 600));
    await runQuery(
      t.db
        .update(paymentOrders)
        .set({ checkoutUrl: 'https://pay.example/opened', paymentLinkId: 'opened' })
        .where(eq(paymentOrders.id, stale.id)),
    );
    const link = (await expectOk(retry)).data;
    expect(link.orderCode).toBe(stale.orderCode);
    expect(link.checkoutUrl).toBe('https://pay.example/opened');
  });
});
