/**
 * Users with paid fees (issue 25 item 6): their deletion is refused (it would erase payment records
 * with the account, by cascade), so the list and the detail say so and the admin does not offer it.
 * One rule for the refusal and the answer.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { inJsonIds } from '../db/sqlite';
import { perDb } from '../lib/per-db';
import { paymentAssignments, paymentOrders } from '../db/tables/payments';
import { allRows } from '../db/engine';

// Built once per database: building the union's SQL cost more than running it, and every users page asks.
const paidStatement = perDb((db) =>
  db
    .select({ userId: paymentAssignments.userId })
    .from(paymentAssignments)
    .where(and(inJsonIds(paymentAssignments.userId, 'ids'), eq(paymentAssignments.status, 'PAID')))
    .union(
      db
        .select({ userId: paymentOrders.userId })
        .from(paymentOrders)
        .where(and(inJsonIds(paymentOrders.userId, 'ids'), eq(paymentOrders.status, 'PAID'))),
    )
    .prepare(),
);

/** The ids among `ids` with a paid fee or a paid order: one query on the two user-id indexes. */
export async function paidUserIds(db: Db, ids: number[]): Promise<Set<number>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Set();
  return new Set((await allRows(paidStatement(db), { ids: JSON.stringify(unique) })).map((r) => r.userId));
}
