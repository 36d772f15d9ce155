/**
 * Applying payOS's word to an order, shared by the webhook and status checks. Money is recorded
 * with its real amount, whatever the order's state (issue 11.3): what does not fit the fee is
 * flagged for the treasurer (money.ts). Each change and its audit row commit in one transaction;
 * a bank transaction (by reference) is counted once.
 */
import type { PaymentOrder } from '@doanhoi/shared';
import { and, asc, eq, sum } from 'drizzle-orm';
import type { Db } from '../db/client';
import { audit } from '../audit/writer';
import { attentionFor, countedOf, recomputeAssignment } from './money';
import { paymentAssignments, paymentCampaigns, paymentOrders, paymentTransactions } from '../db/tables/payments';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';
import { lockFee } from './locks';

export type OrderRow = typeof paymentOrders.$inferSelect;

export interface SettledTransaction {
  reference: string;
  amount: number;
  accountNumber?: string | null;
  description?: string | null;
  transactionDateTime?: string | null;
  counterAccountName?: string | null;
}

export interface Who {
  actorId: number | null;
  ip: string | null;
  action: string;
}

/**
 * Records bank transactions on an order (new references only) and what they mean: the order is
 * PAID with the money received, the assignment recomputed. False when nothing was new.
 * `countTest`: whether sandbox money may settle a fee here (origin.ts sandboxSettlesFees).
 */
export async function settleOrder(db: Db, orderId: number, txs: SettledTransaction[], who: Who, countTest = true): Promise<boolean> {
  const changed = await withTransaction(db, async (tx) => {
    const seen = await firstRow(tx.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)));
    if (!seen) return false;
    // Two webhooks (or a webhook and a status check) for one fee: the second waits here and reads what the first wrote.
    await lockFee(tx, { campaignId: seen.campaignId, assignmentId: seen.assignmentId, orderIds: [orderId] });
    const order = (await firstRow(tx.select().from(paymentOrders).where(eq(paymentOrders.id, orderId))))!;
    const added: string[] = [];
    const synthetic = `PAYOS-${order.orderCode}`;
    for (const t of txs) {
      // A status answer without transactions was recorded under a made-up reference: the real one replaces it.
      if (t.reference !== synthetic) {
        const stand = await firstRow(
          tx
            .select()
            .from(paymentTransactions)
            .where(and(eq(paymentTransactions.orderId, orderId), eq(paymentTransactions.reference, synthetic))),
        );
        if (stand && stand.amount === t.amount) {
          await runQuery(
            tx
              .update(paymentTransactions)
              .set({
                reference: t.reference,
                accountNumber: t.accountNumber ?? null,
                description: t.description ?? null,
                transactionDateTime: t.transactionDateTime ?? null,
              })
              .where(eq(paymentTransactions.id, stand.id)),
          );
          continue;
        }
      }
      const row = await firstRow(
        tx
          .insert(paymentTransactions)
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
          .returning({ id: paymentTransactions.id }),
      );
      if (row) added.push(t.reference);
    }
    if (added.length === 0) return false;
    const received = Number(
      (
        await firstRow(
          tx
            .select({ n: sum(paymentTransactions.amount) })
            .from(paymentTransactions)
            .where(eq(paymentTransactions.orderId, orderId)),
        )
      )?.n ?? 0,
    );
    const assignment = (await firstRow(tx.select().from(paymentAssignments).where(eq(paymentAssignments.id, order.assignmentId))))!;
    const campaign = (await firstRow(
      tx.select({ status: paymentCampaigns.status }).from(paymentCampaigns).where(eq(paymentCampaigns.id, order.campaignId)),
    ))!;
    const others = (await allRows(tx.select().from(paymentOrders).where(eq(paymentOrders.assignmentId, order.assignmentId)))).filter(
      (o) => o.id !== order.id,
    );
    const otherCounted = others.reduce((n, o) => n + (o.isTest && !countTest ? 0 : countedOf(o)), 0);
    const flag =
      order.isTest && !countTest
        ? { attention: null, attentionReason: null, attentionAmount: null }
        : attentionFor({
            received,
            owed: Math.max(0, assignment.amount - otherCounted),
            campaignCancelled: campaign.status === 'CANCELLED' || campaign.status === 'COMPLETED',
            hadMoney: order.receivedAmount > 0,
            exempted: assignment.status === 'EXEMPTED',
          });
    // Money after the campaign ended (completed as much as cancelled) is held for the treasurer: the
    // closing dialog promised no new payments. A resolution stays only while the problem it answered is unchanged.
    const same = flag.attention === order.attention && flag.attentionAmount === order.attentionAmount;
    const now = new Date();
    await runQuery(
      tx
        .update(paymentOrders)
        .set({
          status: 'PAID',
          paidAt: order.paidAt ?? now,
          receivedAmount: received,
          ...flag,
          ...(same ? {} : { resolution: null, resolvedBy: null, resolvedAt: null, resolutionNote: null }),
        })
        .where(eq(paymentOrders.id, orderId)),
    );
    const a = await recomputeAssignment(tx, order.assignmentId, countTest);
    await audit(tx, {
      actorId: who.actorId,
      ip: who.ip,
      action: who.action,
      entity: 'payment_order',
      entityId: orderId,
      before: { status: order.status, receivedAmount: order.receivedAmount, assignmentStatus: assignment.status },
      after: {
        status: 'PAID',
        orderCode: order.orderCode,
        amount: order.amount,
        receivedAmount: received,
        references: added,
        ...flag,
        assignmentStatus: a?.status ?? null,
        isTest: order.isTest,
      },
    });
    return true;
  });
  return changed;
}

/** CANCELLED or EXPIRED, as payOS reports, while the order is still PENDING. */
export async function closeOrder(db: Db, orderId: number, status: 'CANCELLED' | 'EXPIRED', who: Who): Promise<boolean> {
  const changed = await withTransaction(db, async (tx) => {
    const order = await firstRow(tx.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)));
    if (!order || order.status !== 'PENDING') return false;
    // No lock needed: the update is conditional, and PostgreSQL checks its condition again on the row
    // a concurrent settle left (money that landed meanwhile keeps the order PAID, and nothing is audited).
    const closed = await firstRow(
      tx
        .update(paymentOrders)
        .set({ status, cancelledAt: new Date() })
        .where(and(eq(paymentOrders.id, orderId), eq(paymentOrders.status, 'PENDING')))
        .returning({ id: paymentOrders.id }),
    );
    if (!closed) return false;
    await audit(tx, {
      actorId: who.actorId,
      ip: who.ip,
      action: who.action,
      entity: 'payment_order',
      entityId: orderId,
      before: { status: order.status },
      after: { status },
    });
    return true;
  });
  return changed;
}

export async function toOrder(db: Pick<Db, 'select'>, o: OrderRow): Promise<PaymentOrder> {
  const txs = await allRows(
    db.select().from(paymentTransactions).where(eq(paymentTransactions.orderId, o.id)).orderBy(asc(paymentTransactions.id)),
  );
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
    receivedAmount: o.receivedAmount,
    isTest: o.isTest,
    attention: o.attention,
    attentionReason: o.attentionReason,
    attentionAmount: o.attentionAmount,
    resolution: o.resolution,
    resolvedAt: o.resolvedAt ? o.resolvedAt.toISOString() : null,
    resolutionNote: o.resolutionNote,
    transactions: txs.map((t) => ({
      reference: t.reference,
      amount: t.amount,
      accountNumber: t.accountNumber,
      description: t.description,
      transactionDateTime: t.transactionDateTime,
    })),
  };
}
