/**
 * Asking payOS about a PENDING online order and applying its answer, shared by the member's status
 * checks and the expiry job. payOS being unreachable changes nothing.
 */
import { eq } from 'drizzle-orm';
import type { Deps } from '../lib/context';
import { payosClient, PayosError, type PayosCredentials } from '../payos/client';
import { payosBaseUrl, sandboxSettlesFees } from '../payos/origin';
import { campaignCredentials } from './credentials';
import { paymentOrders } from '../db/tables/payments';
import { closeLinksAfterMoney } from './links';
import { closeOrder, settleOrder, type OrderRow } from './settle';
import { logger } from '../lib/logger';
import { firstRow } from '../db/engine';

export interface SyncWho {
  actorId: number | null;
  ip: string | null;
  action: string;
}

/** The answer payOS gave, or null when it could not be asked (no configuration, unreachable). */
export type SyncOutcome = 'PAID' | 'CLOSED' | 'PENDING' | 'PROCESSING' | null;

export async function syncOrder(
  { db, env }: Deps,
  order: OrderRow,
  who: SyncWho,
  baseUrl = payosBaseUrl(env),
): Promise<{ order: OrderRow; outcome: SyncOutcome }> {
  if (order.status !== 'PENDING' || order.paymentMethod !== 'ONLINE') return { order, outcome: null };
  const creds: PayosCredentials | null = await campaignCredentials(db, env, order.campaignId);
  if (!creds) return { order, outcome: null };
  let outcome: SyncOutcome = null;
  try {
    const info = await payosClient({ ...creds, baseUrl }).getPaymentLink(order.orderCode);
    if (info.orderCode !== order.orderCode) return { order, outcome: null };
    // Any money payOS reports is recorded, whatever the link's status (PAID, UNDERPAID, even CANCELLED):
    // an underpaid order must never sit PENDING until the expiry job closes it (issue 11.3).
    const txs = info.transactions?.length
      ? info.transactions
      : info.amountPaid > 0
        ? [
            {
              reference: `PAYOS-${order.orderCode}`,
              amount: info.amountPaid,
              accountNumber: null,
              description: null,
              transactionDateTime: null,
            },
          ]
        : [];
    if (txs.length) {
      if (await settleOrder(db, order.id, txs, who, sandboxSettlesFees(env))) await closeLinksAfterMoney({ db, env }, order.id);
      outcome = 'PAID';
    } else if (info.status === 'CANCELLED' || info.status === 'EXPIRED' || info.status === 'FAILED') {
      // A failed payment ends the link as a cancellation does: the member may open a new one at
      // once instead of waiting a day for the expiry job (issue 26 item 9). Money that still comes
      // is recorded by the webhook, which takes any unpaid order.
      await closeOrder(db, order.id, info.status === 'FAILED' ? 'CANCELLED' : info.status, who);
      outcome = 'CLOSED';
    } else if (info.status === 'PROCESSING') {
      outcome = 'PROCESSING';
    } else {
      outcome = 'PENDING';
    }
  } catch (err) {
    if (!(err instanceof PayosError)) throw err;
    logger.warn({ orderCode: order.orderCode, error: err.message }, 'payOS status check failed');
  }
  return { order: (await firstRow(db.select().from(paymentOrders).where(eq(paymentOrders.id, order.id))))!, outcome };
}
