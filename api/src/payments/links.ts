/**
 * Closing payment links when a fee can no longer be paid online (issue 11.2): at payOS first
 * (async, before the caller's transaction), then locally with closeOpenOrders inside it. A link
 * payOS could not close may still be paid: that money then arrives on a closed order and is
 * recorded and flagged (settle.ts), never dropped.
 */
import { and, eq, type SQL } from 'drizzle-orm';
import type { Deps } from '../lib/context';
import { payosClient } from '../payos/client';
import { payosBaseUrl } from '../payos/origin';
import type { Tx } from './money';
import { campaignCredentials } from './payos-config.service';
import { paymentOrders } from './schema';
import { logger } from '../lib/logger';
import type { OrderRow } from './settle';

/** PENDING online orders matching `where`. */
export function openOrders(db: Deps['db'], where: SQL | undefined): OrderRow[] {
  return db
    .select()
    .from(paymentOrders)
    .where(and(eq(paymentOrders.status, 'PENDING'), eq(paymentOrders.paymentMethod, 'ONLINE'), where))
    .all();
}

/** Cancels these orders' links at payOS; returns the ones payOS did not confirm closed. */
export async function cancelAtPayos({ db, env }: Deps, orders: OrderRow[], reason: string): Promise<OrderRow[]> {
  const failed: OrderRow[] = [];
  for (const o of orders) {
    if (!o.paymentLinkId) continue;
    const creds = campaignCredentials(db, env, o.campaignId);
    if (!creds) {
      failed.push(o);
      continue;
    }
    try {
      await payosClient({ ...creds, baseUrl: payosBaseUrl(env) }).cancelPaymentLink(o.orderCode, reason);
    } catch (err) {
      logger.warn({ orderCode: o.orderCode, error: (err as Error).message }, 'payOS cancel failed');
      failed.push(o);
    }
  }
  return failed;
}

/** Inside the caller's transaction: the matching PENDING orders become CANCELLED. */
export function closeOpenOrders(tx: Tx, where: SQL | undefined, now = new Date()): number {
  return tx
    .update(paymentOrders)
    .set({ status: 'CANCELLED', cancelledAt: now })
    .where(and(eq(paymentOrders.status, 'PENDING'), where))
    .returning({ id: paymentOrders.id })
    .all().length;
}
