/**
 * Closing payment links when a fee can no longer be paid online (issue 11.2) or its balance
 * changed (issue 25, 3d): at payOS first (async, before the caller's transaction), then locally
 * with closeOpenOrders inside it. A link payOS could not close may still be paid: that money then
 * arrives on a closed order and is recorded and flagged (settle.ts), never dropped.
 * "Open" includes an underpaid link: payOS keeps it payable for the rest, so left alone the
 * balance could be paid on it and again on a new link.
 */
import { and, eq, inArray, isNotNull, isNull, lt, or, type SQL } from 'drizzle-orm';
import type { Deps } from '../lib/context';
import { conflict } from '../lib/errors';
import { payosClient } from '../payos/client';
import { payosBaseUrl } from '../payos/origin';
import type { Tx } from './money';
import { campaignCredentials } from './credentials';
import { paymentOrders } from '../db/tables/payments';
import { logger } from '../lib/logger';
import type { OrderRow } from './settle';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';

/** Underpaid online orders whose link was never closed: still payable at payOS. */
const underpaidOpen = and(
  eq(paymentOrders.paymentMethod, 'ONLINE'),
  eq(paymentOrders.status, 'PAID'),
  isNotNull(paymentOrders.paymentLinkId),
  lt(paymentOrders.receivedAmount, paymentOrders.amount),
  isNull(paymentOrders.cancelledAt),
);

const payable = or(and(eq(paymentOrders.status, 'PENDING'), eq(paymentOrders.paymentMethod, 'ONLINE')), underpaidOpen);

/** Online orders matching `where` whose link payOS may still take money on (PENDING or underpaid). */
export async function openOrders(db: Pick<Deps['db'], 'select'>, where: SQL | undefined): Promise<OrderRow[]> {
  return await allRows(db.select().from(paymentOrders).where(and(payable, where)));
}

/** Cancels these orders' links at payOS; returns the ones payOS did not confirm closed. */
export async function cancelAtPayos({ db, env }: Deps, orders: OrderRow[], reason: string): Promise<OrderRow[]> {
  const failed: OrderRow[] = [];
  for (const o of orders) {
    if (!o.paymentLinkId) continue;
    const creds = await campaignCredentials(db, env, o.campaignId);
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

/**
 * Inside the caller's transaction: the matching PENDING orders become CANCELLED and underpaid
 * links are marked closed. `tried`: the orders the caller cancelled at payOS before; a link opened
 * since (a member paying meanwhile) was never closed there, so the write is refused (409) rather
 * than leave it payable.
 */
export async function closeOpenOrders(tx: Tx, where: SQL | undefined, now = new Date(), tried?: OrderRow[]): Promise<number> {
  if (tried) {
    const known = new Set(tried.map((o) => o.id));
    if ((await openOrders(tx, where)).some((o) => !known.has(o.id)))
      conflict('Một link thanh toán mới vừa được tạo cho khoản phí này, vui lòng thử lại');
  }
  await runQuery(tx.update(paymentOrders).set({ cancelledAt: now }).where(and(underpaidOpen, where)));
  return (
    await allRows(
      tx
        .update(paymentOrders)
        .set({ status: 'CANCELLED', cancelledAt: now })
        .where(and(eq(paymentOrders.status, 'PENDING'), where))
        .returning({ id: paymentOrders.id }),
    )
  ).length;
}

/** Links closed by the settling of money, not yet done (tests wait for them). */
const closing = new Set<Promise<void>>();
export const linksClosing = () => Promise.all([...closing]);

/**
 * Money arrived on an order: the fee's balance changed, so every link of the fee still payable at
 * payOS (this one too when it was underpaid) is closed there and here. Best effort: a link payOS
 * could not close is closed here anyway, and money still paid on it is flagged by settleOrder.
 */
export function closeLinksAfterMoney(deps: Deps, orderId: number): Promise<void> {
  const run = (async () => {
    const order = await firstRow(deps.db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)));
    if (!order) return;
    const open = await openOrders(deps.db, eq(paymentOrders.assignmentId, order.assignmentId));
    if (open.length === 0) return;
    await cancelAtPayos(deps, open, 'Số tiền còn phải nộp đã thay đổi');
    await withTransaction(deps.db, async (tx) =>
      closeOpenOrders(
        tx,
        inArray(
          paymentOrders.id,
          open.map((o) => o.id),
        ),
      ),
    );
  })().catch((err: Error) => logger.warn({ orderId, error: err.message }, 'closing links after a payment failed'));
  closing.add(run);
  void run.finally(() => closing.delete(run));
  return run;
}
