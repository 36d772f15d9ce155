/**
 * Where every đồng goes (issue 11.3–11.4). An order's receivedAmount is the money that arrived on
 * it; an assignment's paidAmount is what its orders count towards the fee, and its status follows
 * from that. Money that does not fit the fee is flagged on its order:
 * - REFUND_DUE: the fee was already paid (DUPLICATE), the campaign was cancelled (AFTER_CLOSE) or
 *   more arrived than was owed (OVERPAID). The excess is not counted until the treasurer ACCEPTS
 *   it (kept) or marks it REFUNDED (gone).
 * - BALANCE_DUE: less arrived than was owed (UNDERPAID). The fee stays payable for the rest; paying
 *   it marks the flag SETTLED; ACCEPTED waives the rest (the assignment's amount becomes what was paid).
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { paymentAssignments, paymentOrders } from '../db/tables/payments';
import { allRows, firstRow, runQuery } from '../db/engine';

type OrderRow = typeof paymentOrders.$inferSelect;
export type { Tx };

/**
 * Money of this order counted towards its fee: received, less a refund-due excess not accepted.
 * A reversed mark-paid counts nothing (the money never came); its reversing entry is negative and
 * counts nothing either, so the pair nets to zero in every figure.
 */
export function countedOf(o: Pick<OrderRow, 'receivedAmount' | 'attention' | 'resolution' | 'attentionAmount' | 'reversedAt'>): number {
  if (o.reversedAt) return 0;
  const held = o.attention === 'REFUND_DUE' && o.resolution !== 'ACCEPTED' ? (o.attentionAmount ?? 0) : 0;
  return Math.max(0, o.receivedAmount - held);
}

type Flag = Pick<OrderRow, 'attention' | 'attentionReason' | 'attentionAmount'>;

/** What `received` on one order means when the other orders leave `owed` to pay. */
export function attentionFor(p: {
  received: number;
  owed: number;
  campaignCancelled: boolean;
  hadMoney: boolean;
  exempted?: boolean;
}): Flag {
  if (p.campaignCancelled) return { attention: 'REFUND_DUE', attentionReason: 'AFTER_CLOSE', attentionAmount: p.received };
  // The fee was waived, not paid: "already paid" would tell the treasurer and the member a falsehood (issue 26 item 9).
  if (p.exempted && p.owed <= 0) return { attention: 'REFUND_DUE', attentionReason: 'AFTER_EXEMPTION', attentionAmount: p.received };
  if (p.owed <= 0) return { attention: 'REFUND_DUE', attentionReason: 'DUPLICATE', attentionAmount: p.received };
  if (p.received > p.owed)
    return { attention: 'REFUND_DUE', attentionReason: p.hadMoney ? 'DUPLICATE' : 'OVERPAID', attentionAmount: p.received - p.owed };
  if (p.received < p.owed) return { attention: 'BALANCE_DUE', attentionReason: 'UNDERPAID', attentionAmount: p.owed - p.received };
  return { attention: null, attentionReason: null, attentionAmount: null };
}

/**
 * Recomputes an assignment's paidAmount, status and method from its orders (call inside the write's
 * transaction). PAID once the counted money reaches the amount; test money counts only when
 * `countTest` (the demo's sandbox).
 */
export async function recomputeAssignment(tx: Tx, assignmentId: number, countTest: boolean) {
  const a = await firstRow(tx.select().from(paymentAssignments).where(eq(paymentAssignments.id, assignmentId)));
  if (!a) return null;
  const orders = await allRows(
    tx
      .select()
      .from(paymentOrders)
      .where(eq(paymentOrders.assignmentId, assignmentId))
      .orderBy(asc(paymentOrders.paidAt), asc(paymentOrders.id)),
  );
  let counted = 0;
  let test = false;
  let last: OrderRow | null = null;
  for (const o of orders) {
    if (o.receivedAmount <= 0 || (o.isTest && !countTest)) continue;
    const c = countedOf(o);
    if (c <= 0) continue;
    counted += c;
    if (o.isTest) test = true;
    last = o;
  }
  const paid = counted > 0 && counted >= a.amount;
  const status = paid ? 'PAID' : a.status === 'PAID' ? 'PENDING' : a.status;
  const now = new Date();
  const after = await firstRow(
    tx
      .update(paymentAssignments)
      .set({
        status,
        paidAmount: counted > 0 ? counted : null,
        paidAt: paid ? (a.status === 'PAID' && a.paidAt ? a.paidAt : (last?.paidAt ?? now)) : null,
        paymentMethod: last?.paymentMethod ?? null,
        isTestPayment: paid && test,
      })
      .where(eq(paymentAssignments.id, assignmentId))
      .returning(),
  );
  if (paid) {
    // The balance was paid: the underpayment flags of this fee are answered.
    await runQuery(
      tx
        .update(paymentOrders)
        .set({ resolution: 'SETTLED', resolvedAt: now })
        .where(
          and(eq(paymentOrders.assignmentId, assignmentId), eq(paymentOrders.attention, 'BALANCE_DUE'), isNull(paymentOrders.resolution)),
        ),
    );
  }
  return after;
}
