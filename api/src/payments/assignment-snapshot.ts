/** What an assignment's audit rows record of it, before and after a write. */
import type { paymentAssignments } from '../db/tables/payments';

type AssignmentRow = typeof paymentAssignments.$inferSelect;

export function snapshot(a: AssignmentRow) {
  return {
    id: a.id,
    campaignId: a.campaignId,
    userId: a.userId,
    feeLevelId: a.feeLevelId,
    amount: a.amount,
    status: a.status,
    dueDate: a.dueDate,
    notes: a.notes,
    paidAt: a.paidAt,
    paidAmount: a.paidAmount,
    paymentMethod: a.paymentMethod,
  };
}
