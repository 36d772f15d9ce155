/**
 * Status checks a member or a treasurer asks for (check-status, process) reach payOS at most once
 * per order every STATUS_CHECK_INTERVAL_MS, and parallel checks of one order share one call: the
 * result page polls every 5 s, but a script polling in a loop would otherwise spend the
 * organization's payOS quota (every call carries its client id and API key). Inside the interval
 * the order is read again from the database, where a webhook may have settled it meanwhile.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { paymentOrders } from '../db/tables/payments';
import type { OrderRow } from './settle';

export const STATUS_CHECK_INTERVAL_MS = 2_000;
/** Orders remembered per database; older entries are dropped past this many. */
const MAX_TRACKED = 10_000;

type Entry = { at: number; pending: Promise<OrderRow> | null };
const byDb = new WeakMap<Db, Map<number, Entry>>();

export async function throttledSync(db: Db, order: OrderRow, ask: (o: OrderRow) => Promise<OrderRow>, now = Date.now()): Promise<OrderRow> {
  let seen = byDb.get(db);
  if (!seen) byDb.set(db, (seen = new Map()));
  const e = seen.get(order.id);
  if (e?.pending) return e.pending;
  if (e && now - e.at < STATUS_CHECK_INTERVAL_MS)
    return db.select().from(paymentOrders).where(eq(paymentOrders.id, order.id)).get() ?? order;
  if (seen.size >= MAX_TRACKED) {
    for (const [id, old] of seen) if (!old.pending && now - old.at >= STATUS_CHECK_INTERVAL_MS) seen.delete(id);
  }
  const entry: Entry = { at: now, pending: null };
  entry.pending = ask(order).finally(() => {
    entry.at = Date.now();
    entry.pending = null;
  });
  seen.set(order.id, entry);
  return entry.pending;
}
