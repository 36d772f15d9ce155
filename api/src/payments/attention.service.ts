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

/** The organization of the campaign of the order named by `:id`. */
export const fromOrderParam: OrganizationFrom = (c) => {
  const id = Number(c.req.param('id'));
  if (!Number.isInteger(id) || id <= 0) return null;
  return (
    c
      .get('deps')
      .db.select({ o: paymentCampaigns.organizationId })
      .from(paymentOrders)
      .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, paymentOrders.campaignId))
      .where(eq(paymentOrders.id, id))
      .get()?.o ?? null
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
  const order = db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)).get();
  if (!order) notFound('Không tìm thấy đơn thanh toán');
  if (!order!.attention || order!.resolution) conflict('Đơn thanh toán này không có khoản cần xử lý');
  if (input.resolution === 'REFUNDED' && order!.attention !== 'REFUND_DUE')
    badRequest('Chỉ khoản cần hoàn tiền mới đánh dấu đã hoàn tiền được');
  assertNotOwnFee(actor, order!.userId, 'xử lý khoản cần hoàn tiền/miễn phần còn thiếu');
  const waive = order!.attention === 'BALANCE_DUE' && input.resolution === 'ACCEPTED';
  // A waived balance must not stay payable online.
  const links = waive ? openOrders(db, eq(paymentOrders.assignmentId, order!.assignmentId)) : [];
  if (waive) await cancelAtPayos(deps, links, 'Miễn phần còn thiếu');
  const countTest = sandboxSettlesFees(env);
  const now = new Date();
  db.transaction((tx) => {
    const current = tx.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)).get()!;
    if (current.resolution) conflict('Đơn thanh toán này vừa được xử lý');
    // payOS was slow: money that landed meanwhile changes what is being answered.
    if (
      current.attention !== order!.attention ||
      current.attentionAmount !== order!.attentionAmount ||
      current.receivedAmount !== order!.receivedAmount
    ) {
      conflict('Khoản cần xử lý vừa thay đổi (có thêm tiền vào), vui lòng tải lại');
    }
    tx.update(paymentOrders)
      .set({ resolution: input.resolution, resolvedBy: actor.id, resolvedAt: now, resolutionNote: input.note ?? null })
      .where(eq(paymentOrders.id, orderId))
      .run();
    const a = tx.select().from(paymentAssignments).where(eq(paymentAssignments.id, current.assignmentId)).get()!;
    if (waive) {
      closeOpenOrders(tx, eq(paymentOrders.assignmentId, a.id), now, links);
      const counted = tx
        .select()
        .from(paymentOrders)
        .where(eq(paymentOrders.assignmentId, a.id))
        .all()
        .reduce((n, o) => n + (o.isTest && !countTest ? 0 : countedOf(o)), 0);
      // The waived rest is a reduction like any other (issue 26 item 9): the fee before it stays in
      // originalAmount, so statistics, the export and the portal show "giảm X" instead of a smaller fee.
      const amount = Math.min(a.amount, counted);
      tx.update(paymentAssignments)
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
        .where(eq(paymentAssignments.id, a.id))
        .run();
    }
    const after = recomputeAssignment(tx, a.id, countTest);
    audit(tx, {
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
  return toOrder(db, db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)).get()!);
}
