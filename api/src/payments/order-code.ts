import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { paymentOrders } from '../db/tables/payments';
import { firstRow } from '../db/engine';

/**
 * A new numeric order code: milliseconds since the epoch and two random digits (about 1.8e14,
 * well inside payOS's safe-integer range), retried in the unlikely event it is taken.
 */
export async function newOrderCode(db: Pick<Db, 'select'>): Promise<number> {
  for (;;) {
    const code = Date.now() * 100 + randomInt(100);
    if (!(await firstRow(db.select({ id: paymentOrders.id }).from(paymentOrders).where(eq(paymentOrders.orderCode, code))))) return code;
  }
}
