/**
 * Whether "Xóa" on a fee assignment would be accepted (issue 25 item 6): the assignments answer
 * carries canDelete, computed from the same condition assignments.service remove() applies, so the
 * admin offers only what the server accepts. A fee with money on it is kept: an order that was
 * paid or received money (a reversed cash payment keeps what it received, so it still counts).
 */
import { and, eq, gt, or, sql, type SQL } from 'drizzle-orm';
import { paymentAssignments, paymentOrders } from '../db/tables/payments';

/** The orders that keep their assignment from being deleted. */
export const holdsMoney = (): SQL => or(eq(paymentOrders.status, 'PAID'), gt(paymentOrders.receivedAmount, 0))!;

/** For a select over payment_assignments: 1 when one of its orders holds money. */
export const assignmentHoldsMoney = sql<number>`exists (select 1 from ${paymentOrders} where ${and(eq(paymentOrders.assignmentId, paymentAssignments.id), holdsMoney())})`;

/** The rule of remove(): not on a finished campaign, not on a paid fee, not when any order holds money. */
export function assignmentDeletable(a: { status: string }, campaignStatus: string, moneyHeld: unknown): boolean {
  return campaignStatus !== 'COMPLETED' && campaignStatus !== 'CANCELLED' && a.status !== 'PAID' && !Number(moneyHeld);
}
