/**
 * Applying payOS's word to an order, shared by the webhook and status checks. Each change and
 * its audit row commit in one transaction; a paid order is never changed again (idempotent).
 */
import type { PaymentOrder } from '@doanhoi/shared';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { audit } from '../lib/audit';
import { paymentAssignments, paymentOrders, paymentTransactions } from './schema';

export type OrderRow = typeof paymentOrders.$inferSelect;

export interface SettledTransaction {
  reference: string;
  amount: number;
  accountNumber?: string | null;
  description?: string | null;
  transactionDateTime?: string | null;
  counterAccountName?: string | null;
}

interface Who {
  actorId: number | null;
  ip: string | null;
  action: string;
}

/** Marks the order and its assignment PAID with the bank transactions. False when it already was. */
export function settleOrder(db: Db, orderId: number, txs: SettledTransaction[], who: Who): boolean {
  const changed = db.transaction((tx) => {
    const order = tx.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)).get();
    if (!order || order.status === 'PAID') return false;
    const now = new Date();
    for (const t of txs) {
      tx.insert(paymentTransactions)
        .values({
          orderId,
          reference: t.reference,
          amount: t.amount,
          accountNumber: t.accountNumber ?? null,
          description: t.description ?? null,
          transactionDateTime: t.transactionDateTime ?? null,
          counterAccountName: t.counterAccountName ?? null,
        })
        .onConflictDoNothing({ target: paymentTransactions.reference })
        .run();
    }
    tx.update(paymentOrders).set({ status: 'PAID', paidAt: now, cancelledAt: null }).where(eq(paymentOrders.id, orderId)).run();
    const assignment = tx.select().from(paymentAssignments).where(eq(paymentAssignments.id, order.assignmentId)).get();
    // A member who also paid in cash keeps the first payment; the audit row shows the second.
    const alreadyPaid = assignment?.status === 'PAID';
    if (assignment && !alreadyPaid) {
      tx.update(paymentAssignments).set({ status: 'PAID', paidAt: now, paidAmount: order.amount, paymentMethod: 'ONLINE' }).where(eq(paymentAssignments.id, assignment.id)).run();
    }
    audit(tx, {
      actorId: who.actorId,
      ip: who.ip,
      action: who.action,
      entity: 'payment_order',
      entityId: orderId,
      before: { status: order.status, assignmentStatus: assignment?.status ?? null },
      after: { status: 'PAID', orderCode: order.orderCode, amount: order.amount, references: txs.map((t) => t.reference), assignmentAlreadyPaid: alreadyPaid },
    });
    return true;
  });
  return changed;
}

/** CANCELLED or EXPIRED, as payOS reports, while the order is still PENDING. */
export function closeOrder(db: Db, orderId: number, status: 'CANCELLED' | 'EXPIRED', who: Who): boolean {
  const changed = db.transaction((tx) => {
    const order = tx.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)).get();
    if (!order || order.status !== 'PENDING') return false;
    tx.update(paymentOrders).set({ status, cancelledAt: new Date() }).where(eq(paymentOrders.id, orderId)).run();
    audit(tx, { actorId: who.actorId, ip: who.ip, action: who.action, entity: 'payment_order', entityId: orderId, before: { status: order.status }, after: { status } });
    return true;
  });
  return changed;
}

export function toOrder(db: Pick<Db, 'select'>, o: OrderRow): PaymentOrder {
  const txs = db.select().from(paymentTransactions).where(eq(paymentTransactions.orderId, o.id)).orderBy(asc(paymentTransactions.id)).all();
  return {
    id: o.id,
    orderCode: o.orderCode,
    assignmentId: o.assignmentId,
    campaignId: o.campaignId,
    amount: o.amount,
    description: o.description,
    status: o.status,
    paymentMethod: o.paymentMethod,
    checkoutUrl: o.status === 'PENDING' ? o.checkoutUrl : null,
    paidAt: o.paidAt ? o.paidAt.toISOString() : null,
    createdAt: o.createdAt.toISOString(),
    transactions: txs.map((t) => ({
      reference: t.reference,
      amount: t.amount,
      accountNumber: t.accountNumber,
      description: t.description,
      transactionDateTime: t.transactionDateTime,
    })),
  };
}
