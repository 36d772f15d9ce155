/**
 * Status checks a member or a treasurer asks for (check-status, process) reach payOS at most once
 * per order every STATUS_CHECK_INTERVAL_MS, and parallel checks of one order share one call: the
 * result page polls every 5 s, but a script polling in a loop would otherwise spend the
 * organization's payOS quota (every call carries its client id and API key). Inside the interval
 * the order is read again from the database, where a webhook may have settled it meanwhile.
 *
 * The interval is a rate_windows row (lib/fixed-window.ts), so the API's processes share it (issue
 * 28); a call still under way is shared within its process, and another process inside the
 * interval answers from the database.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { SharedWindowCounter } from '../lib/fixed-window';
import { paymentOrders } from '../db/tables/payments';
import type { OrderRow } from './settle';
import { firstRow } from '../db/engine';

export const STATUS_CHECK_INTERVAL_MS = 2_000;

const windows = new WeakMap<Db, SharedWindowCounter>();
const inFlight = new WeakMap<Db, Map<number, Promise<OrderRow>>>();

export async function throttledSync(db: Db, order: OrderRow, ask: (o: OrderRow) => Promise<OrderRow>, now = Date.now()): Promise<OrderRow> {
  let calls = inFlight.get(db);
  if (!calls) inFlight.set(db, (calls = new Map()));
  const pending = calls.get(order.id);
  if (pending) return pending;
  const counter = windows.get(db) ?? new SharedWindowCounter(db, 'payos-status', STATUS_CHECK_INTERVAL_MS);
  windows.set(db, counter);
  const key = String(order.id);
  // Shared from before the counter answers: a parallel check arriving meanwhile waits for this one.
  const call = (async () => {
    if ((await counter.hit(key, now)) > 1)
      return (await firstRow(db.select().from(paymentOrders).where(eq(paymentOrders.id, order.id)))) ?? order;
    try {
      return await ask(order);
    } finally {
      // The interval runs from the call's end: a slow payOS answer does not shorten it.
      await counter.forget(key);
      await counter.hit(key);
    }
  })().finally(() => calls.delete(order.id));
  calls.set(order.id, call);
  return call;
}
