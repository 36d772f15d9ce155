/**
 * POST /payment-admin/orders/{id}/resolve: the treasurer's answer to money that did not fit a fee
 * (issue 11.3). REFUNDED: the excess went back (refund due only). ACCEPTED: the excess is kept
 * (counted towards the fee), or the missing balance is waived (the assignment's amount becomes
 * what was paid, so the figures still add up). Audited; answered once (409 after). Never by the
 * member whose fee it is (four-eyes.ts).
 */
import type { PaymentOrder, ResolveAttention } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import { audit } from '../audit/writer';
import type { OrganizationFrom } from '../access/middleware';
import type { Actor, Deps } from '../lib/context';
import { badRequest, conflict, notFound } from '../lib/errors';
import { sandboxSettlesFees } from '../payos/origin';
import { assertNotOwnFee } from './four-eyes';
import { cancelAtPayos, closeOpenOrders, openOrders } from './links';
import { countedOf, recomputeAssignment } from './money';
import { paymentAssignments, paymentCampaigns, paymentOrders } from '../db/tables/payments';
import { toOrder } from './settle';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';
import { lockFee } from './locks';

/** The organization of the campaign of the order named by `:id`. */
export const fromOrderParam: OrganizationFrom = async (c) => {
  const id = Number(c.req.param('id'));
  if (!Number.isInteger(id) || id <= 0) return null;
  return (
    (
      await firstRow(
        c
          .get('deps')
          .db.select({ o: paymentCampaigns.organizationId })
          .from(paymentOrders)
          .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, paymentOrders.campaignId))
          .where(eq(paymentOrders.id, id)),
      )
    )?.o ?? null
  );
};

/** How a waived balance reads as the reduction's reason (the treasurer's note follows). */
const WAIVED_BALANCE = 'Miễn phần còn thiếu';

export async function resolveAttention(
  deps: Deps,
  actor: Actor,
  ip: string | null,
  orderId: number,
  input: ResolveAttention,
): Promise<PaymentOrder> {
  const { db, env } = deps;
  const order = await firstRow(db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)));
  if (!order) notFound('Không tìm thấy đơn thanh toán');
  if (!order!.attention || order!.resolution) conflict('Đơn thanh toán này không có khoản cần xử lý');
  if (input.resolution === 'REFUNDED' && order!.attention !== 'REFUND_DUE')
    badRequest('Chỉ khoản cần hoàn tiền mới đánh dấu đã hoàn tiền được');
  assertNotOwnFee(actor, order!.userId, 'xử lý khoản cần hoàn tiền/miễn phần còn thiếu');
  const waive = order!.attention === 'BALANCE_DUE' && input.resolution === 'ACCEPTED';
  // A waived balance must not stay payable online.
  const links = waive ? await openOrders(db, eq(paymentOrders.assignmentId, order!.assignmentId)) : [];
  if (waive) await cancelAtPayos(deps, links, 'Miễn phần còn thiếu');
  const countTest = sandboxSettlesFees(env);
  const now = new Date();
  await withTransaction(db, async (tx) => {
    await lockFee(tx, { campaignId: order!.campaignId, assignmentId: order!.assignmentId, orderIds: [orderId] });
    const current = (await firstRow(tx.select().from(paymentOrders).where(eq(paymentOrders.id, orderId))))!;
    if (current.resolution) conflict('Đơn thanh toán này vừa được xử lý');
    // payOS was slow: money that landed meanwhile changes what is being answered.
    if (
      current.attention !== order!.attention ||
      current.attentionAmount !== order!.attentionAmount ||
      current.receivedAmount !== order!.receivedAmount
    ) {
      conflict('Khoản cần xử lý vừa thay đổi (có thêm tiền vào), vui lòng tải lại');
    }
    await runQuery(
      tx
        .update(paymentOrders)
        .set({ resolution: input.resolution, resolvedBy: actor.id, resolvedAt: now, resolutionNote: input.note ?? null })
        .where(eq(paymentOrders.id, orderId)),
    );
    const a = (await firstRow(tx.select().from(paymentAssignments).where(eq(paymentAssignments.id, current.assignmentId))))!;
    if (waive) {
      await closeOpenOrders(tx, eq(paymentOrders.assignmentId, a.id), now, links);
      const counted = (await allRows(tx.select().from(paymentOrders).where(eq(paymentOrders.assignmentId, a.id)))).reduce(
        (n, o) => n + (o.isTest && !countTest ? 0 : countedOf(o)),
        0,
      );
      // The waived rest is a reduction like any other (issue 26 item 9): the fee before it stays in
      // originalAmount, so statistics, the export and the portal show "giảm X" instead of a smaller fee.
      const amount = Math.min(a.amount, counted);
      await runQuery(
        tx
          .update(paymentAssignments)
          .set({
            amount,
            ...(amount < a.amount
              ? {
                  originalAmount: a.originalAmount ?? a.amount,
                  adjustment: 'REDUCED' as const,
                  adjustmentReason: [WAIVED_BALANCE, input.note?.trim()].filter(Boolean).join(': '),
                  adjustedBy: actor.id,
                  adjustedAt: now,
                }
              : {}),
          })
          .where(eq(paymentAssignments.id, a.id)),
      );
    }
    const after = await recomputeAssignment(tx, a.id, countTest);
    await audit(tx, {
      actorId: actor.id,
      ip,
      action: 'payment.resolve_attention',
      entity: 'payment_order',
      entityId: orderId,
      before: {
        attention: current.attention,
        attentionReason: current.attentionReason,
        attentionAmount: current.attentionAmount,
        assignmentAmount: a.amount,
        assignmentStatus: a.status,
      },
      after: {
        resolution: input.resolution,
        note: input.note ?? null,
        assignmentAmount: after?.amount ?? null,
        assignmentStatus: after?.status ?? null,
      },
    });
  });
  return toOrder(db, (await firstRow(db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId))))!);
}
