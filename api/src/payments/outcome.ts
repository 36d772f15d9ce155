/**
 * The member's reading of an order (issue 25.3c, 25.5): the result page and the receipt say what
 * happened from these figures instead of greeting every PAID order with "success".
 */
import type { OrderOutcome, PaymentOrder } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Env } from '../env';
import { sandboxSettlesFees } from '../payos/origin';
import { iso } from './mappers';
import { countedOf } from './money';
import { paymentAssignments, paymentCampaigns, paymentOrders } from '../db/tables/payments';
import { firstRow } from '../db/engine';

type OrderRow = typeof paymentOrders.$inferSelect;

/** Figures of one order row; `fee` is its assignment now. */
export function outcomeOf(
  o: OrderRow,
  fee: { status: string; amount: number; paidAmount: number | null; campaignStatus: string } | undefined,
  reversesOrderCode: number | null,
  countTest: boolean,
): OrderOutcome {
  const reversal = o.reversesOrderId != null;
  const received = reversal ? 0 : Math.max(0, o.receivedAmount);
  // Test money of a public demo never counts (money.ts recomputeAssignment skips it).
  const counted = reversal || (o.isTest && !countTest) ? 0 : countedOf(o);
  const refund = o.attention === 'REFUND_DUE' && !o.reversedAt ? (o.attentionAmount ?? 0) : 0;
  // A cancelled campaign asks nothing more of anyone.
  const owed =
    !fee || fee.status === 'PAID' || fee.status === 'EXEMPTED' || fee.campaignStatus === 'CANCELLED'
      ? 0
      : Math.max(0, fee.amount - (fee.paidAmount ?? 0));
  return {
    received,
    counted,
    refundDue: o.resolution === null ? refund : 0,
    refunded: o.resolution === 'REFUNDED' ? refund : 0,
    stillDue: owed,
    // A reversed payment keeps its receipt, marked; a reversing entry, a cancelled link or money
    // that is all to be refunded has none.
    receipt: !reversal && o.status === 'PAID' && (counted > 0 || o.reversedAt !== null),
    reversedAt: iso(o.reversedAt),
    reversalReason: o.reversalReason,
    reversesOrderCode,
  };
}

/** The order as the member's routes answer it: with its outcome. */
export async function withOutcome<T extends PaymentOrder>(db: Db, env: Env, order: T): Promise<T> {
  const row = await firstRow(db.select().from(paymentOrders).where(eq(paymentOrders.id, order.id)));
  if (!row) return order;
  const fee = await firstRow(
    db
      .select({
        status: paymentAssignments.status,
        amount: paymentAssignments.amount,
        paidAmount: paymentAssignments.paidAmount,
        campaignStatus: paymentCampaigns.status,
      })
      .from(paymentAssignments)
      .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, paymentAssignments.campaignId))
      .where(eq(paymentAssignments.id, row.assignmentId)),
  );
  const reversed =
    row.reversesOrderId == null
      ? undefined
      : await firstRow(db.select({ code: paymentOrders.orderCode }).from(paymentOrders).where(eq(paymentOrders.id, row.reversesOrderId)));
  return { ...order, outcome: outcomeOf(row, fee, reversed?.code ?? null, sandboxSettlesFees(env)) };
}
