/**
 * Online orders nobody finished. payOS expires a link at the expiredAt we send (PAYMENT_LINK_TTL_MINUTES)
 * but only says so when asked, so every few minutes the orders still PENDING a while past their
 * link's end are checked with payOS: it may have been paid while its webhook got lost (then it is
 * settled), or closed (then it is closed here; FAILED counts as closed). One payOS still calls
 * PROCESSING is closed half an hour after its link's end. An order payOS could not answer for within a day is
 * EXPIRED here and its link cancelled, best effort; a late webhook still settles it (settleOrder
 * takes any unpaid order), so no payment is lost.
 */
import { and, asc, eq, lt } from 'drizzle-orm';
import type { Deps } from '../lib/context';
import { payosClient } from '../payos/client';
import { campaignCredentials } from './credentials';
import { paymentOrders } from '../db/tables/payments';
import { closeOrder } from './settle';
import { syncOrder } from './sync';
import { allRows } from '../db/engine';

/** Time after the link's end before asking payOS: its own expiry and webhooks settle first. */
export const EXPIRY_GRACE_MS = 5 * 60_000;
/** Time after the link's end after which an order payOS never answered for is expired here. */
export const GIVE_UP_MS = 24 * 3600_000;
/**
 * Time after the link's end after which a link payOS still calls PROCESSING is closed here: a bank
 * transfer in flight settles within minutes, and a link stuck there must not keep the member's fee
 * "being paid" for a day (issue 26 item 9). Money that still arrives is recorded by the webhook.
 */
export const PROCESSING_GIVE_UP_MS = 30 * 60_000;
/** Orders checked per run: each is one payOS request. */
const BATCH = 100;

export interface ExpiryReport {
  checked: number;
  paid: number;
  closed: number;
  expiredHere: number;
}

export async function expireStaleOrders(deps: Deps, baseUrl: string, now = Date.now()): Promise<ExpiryReport> {
  const { db, env } = deps;
  const linkEnd = (createdAt: Date) => createdAt.getTime() + env.PAYMENT_LINK_TTL_MINUTES * 60_000;
  const stale = await allRows(
    db
      .select()
      .from(paymentOrders)
      .where(
        and(
          eq(paymentOrders.status, 'PENDING'),
          eq(paymentOrders.paymentMethod, 'ONLINE'),
          lt(paymentOrders.createdAt, new Date(now - env.PAYMENT_LINK_TTL_MINUTES * 60_000 - EXPIRY_GRACE_MS)),
        ),
      )
      .orderBy(asc(paymentOrders.id))
      .limit(BATCH),
  );
  const report: ExpiryReport = { checked: stale.length, paid: 0, closed: 0, expiredHere: 0 };
  for (const row of stale) {
    const { order, outcome } = await syncOrder(deps, row, { actorId: null, ip: null, action: 'payment.sync' }, baseUrl);
    if (outcome === 'PAID') report.paid++;
    else if (outcome === 'CLOSED') report.closed++;
    else if (
      order.status === 'PENDING' &&
      now - linkEnd(order.createdAt) >= (outcome === 'PROCESSING' ? PROCESSING_GIVE_UP_MS : GIVE_UP_MS)
    ) {
      const creds = await campaignCredentials(db, env, order.campaignId);
      if (creds && order.paymentLinkId) {
        await payosClient({ ...creds, baseUrl })
          .cancelPaymentLink(order.orderCode, 'Hết hạn thanh toán')
          .catch(() => undefined);
      }
      if (await closeOrder(db, order.id, 'EXPIRED', { actorId: null, ip: null, action: 'payment.expire' })) report.expiredHere++;
    }
  }
  return report;
}
