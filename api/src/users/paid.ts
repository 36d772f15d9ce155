/**
 * Users with paid fees (issue 25 item 6): their deletion is refused (it would erase payment records
 * with the account, by cascade), so the list and the detail say so and the admin does not offer it.
 * One rule for the refusal and the answer.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { union } from 'drizzle-orm/sqlite-core';
import type { Db } from '../db/client';
import { paymentAssignments, paymentOrders } from '../db/tables/payments';

/** The ids among `ids` with a paid fee or a paid order: one query on the two user-id indexes. */
export function paidUserIds(db: Pick<Db, 'select'>, ids: number[]): Set<number> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Set();
  const rows = union(
    db
      .select({ userId: paymentAssignments.userId })
      .from(paymentAssignments)
      .where(and(inArray(paymentAssignments.userId, unique), eq(paymentAssignments.status, 'PAID'))),
    db
      .select({ userId: paymentOrders.userId })
      .from(paymentOrders)
      .where(and(inArray(paymentOrders.userId, unique), eq(paymentOrders.status, 'PAID'))),
  ).all();
  return new Set(rows.map((r) => r.userId));
}
