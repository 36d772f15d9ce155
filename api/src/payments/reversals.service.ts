/**
 * Reversing a mistaken mark-paid (issue 15.3). The manual payment record stays, marked reversed
 * (who, when, why), and a reversing entry is added beside it: a MANUAL order for the negative
 * amount, pointing at it. Neither counts towards the fee (money.ts countedOf), so the assignment
 * goes back to unpaid and payable, and collected drops; history and exports show both entries.
 * Online payOS money really moved: it is refunded through the attention flow, never reversed here.
 */
import type { Assignment, ReversePayment } from '@doanhoi/shared';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { audit } from '../audit/writer';
import type { Actor, Deps } from '../lib/context';
import { conflict, conflictOnUnique, fail, notFound } from '../lib/errors';
import { sandboxSettlesFees } from '../payos/origin';
import { assertCan, P, type RequestInfo } from '../access/payments';
import { ASSIGNMENT_NOT_FOUND } from './assignments.query';
import { assignmentQuery, toAssignment } from './mappers';
import { recomputeAssignment } from './money';
import { newOrderCode } from './order-code';
import { assertWritable, loadCampaign } from './rules';
import { paymentAssignments, paymentOrders } from '../db/tables/payments';
import { firstRow, runQuery, withTransaction } from '../db/engine';
import { lockFee } from './locks';

type OrderRow = typeof paymentOrders.$inferSelect;

const ONLINE_REFUSAL =
  'Chỉ hủy xác nhận được khoản thu thủ công (tiền mặt/chuyển khoản). Thanh toán trực tuyến qua PayOS là tiền đã vào tài khoản: hãy hoàn tiền cho thành viên và ghi nhận ở mục "Cần xử lý" của lịch sử thanh toán';

/** Why an order cannot be reversed, or null. The status codes: 404 not this fee's, 422 not manual, 409 already done. */
function refusal(o: OrderRow | undefined, assignmentId: number): [number, string] | null {
  if (!o || o.assignmentId !== assignmentId) return [404, 'Không tìm thấy khoản thu của khoản phí này'];
  if (o.reversesOrderId != null) return [422, 'Đây là bút toán hủy, không thể hủy lại'];
  if (o.paymentMethod !== 'MANUAL') return [422, ONLINE_REFUSAL];
  if (o.status !== 'PAID' || o.receivedAmount <= 0) return [422, 'Khoản thu này chưa được ghi nhận'];
  if (o.reversedAt) return [409, 'Khoản thu này đã được hủy xác nhận'];
  return null;
}

export function reversalsService(deps: Deps, actor: Actor, req: RequestInfo) {
  const { db } = deps;

  /** The order named, else the latest manual payment of the fee still in force. */
  async function pick(assignmentId: number, orderId: number | undefined): Promise<OrderRow | undefined> {
    if (orderId !== undefined) return await firstRow(db.select().from(paymentOrders).where(eq(paymentOrders.id, orderId)));
    const manual = await firstRow(
      db
        .select()
        .from(paymentOrders)
        .where(
          and(
            eq(paymentOrders.assignmentId, assignmentId),
            eq(paymentOrders.paymentMethod, 'MANUAL'),
            eq(paymentOrders.status, 'PAID'),
            isNull(paymentOrders.reversedAt),
            isNull(paymentOrders.reversesOrderId),
          ),
        )
        .orderBy(desc(paymentOrders.paidAt), desc(paymentOrders.id)),
    );
    if (manual) return manual;
    // No manual payment in force: say why for an online one (422), else there is nothing to reverse (409).
    const online = await firstRow(
      db
        .select()
        .from(paymentOrders)
        .where(
          and(eq(paymentOrders.assignmentId, assignmentId), eq(paymentOrders.paymentMethod, 'ONLINE'), eq(paymentOrders.status, 'PAID')),
        ),
    );
    if (online) fail(422, ONLINE_REFUSAL);
    conflict('Khoản phí này không có khoản thu thủ công nào để hủy xác nhận');
  }

  return {
    async reverse(assignmentId: number, input: ReversePayment): Promise<Assignment> {
      const a = await firstRow(db.select().from(paymentAssignments).where(eq(paymentAssignments.id, assignmentId)));
      if (!a) notFound(ASSIGNMENT_NOT_FOUND);
      const campaign = await loadCampaign(db, a!.campaignId);
      await assertCan(db, actor, P.reverse, campaign.organizationId);
      assertWritable(campaign, 'hủy xác nhận thanh toán');
      const chosen = await pick(assignmentId, input.orderId);
      const now = new Date();
      // Two reversals of one order past the checks: the unique reversing entry refuses the second.
      await conflictOnUnique(
        'Khoản thu này đã được hủy xác nhận',
        async () =>
          await withTransaction(db, async (tx) => {
            await lockFee(tx, { campaignId: a!.campaignId, assignmentId, orderIds: chosen ? [chosen.id] : [] });
            assertWritable(await loadCampaign(tx, a!.campaignId), 'hủy xác nhận thanh toán');
            // Read again after the lock: a concurrent reversal of the same order ends here as 409.
            const o = chosen && (await firstRow(tx.select().from(paymentOrders).where(eq(paymentOrders.id, chosen.id))));
            const why = refusal(o, assignmentId);
            if (why) fail(why[0] as 404 | 409 | 422, why[1]);
            const before = (await firstRow(tx.select().from(paymentAssignments).where(eq(paymentAssignments.id, assignmentId))))!;
            // The money never came, so a refund flagged on it is moot; the audit row keeps the flag.
            await runQuery(
              tx
                .update(paymentOrders)
                .set({
                  reversedAt: now,
                  reversedBy: actor.id,
                  reversalReason: input.reason,
                  attention: null,
                  attentionReason: null,
                  attentionAmount: null,
                })
                .where(and(eq(paymentOrders.id, o!.id), isNull(paymentOrders.reversedAt))),
            );
            const entry = await firstRow(
              tx
                .insert(paymentOrders)
                .values({
                  orderCode: await newOrderCode(tx),
                  assignmentId,
                  campaignId: a!.campaignId,
                  userId: a!.userId,
                  amount: -o!.amount,
                  receivedAmount: -o!.receivedAmount,
                  description: `Hủy xác nhận thu #${o!.orderCode}: ${campaign.name}`,
                  status: 'PAID',
                  paymentMethod: 'MANUAL',
                  manualMethod: o!.manualMethod,
                  note: input.reason,
                  recordedBy: actor.id,
                  paidAt: now,
                  reversesOrderId: o!.id,
                })
                .returning(),
            );
            const after = (await recomputeAssignment(tx, assignmentId, sandboxSettlesFees(deps.env)))!;
            await audit(tx, {
              actorId: actor.id,
              ip: req.ip,
              action: 'payment.reverse',
              entity: 'payment_order',
              entityId: o!.id,
              before: {
                orderCode: o!.orderCode,
                receivedAmount: o!.receivedAmount,
                attention: o!.attention,
                attentionAmount: o!.attentionAmount,
                assignmentStatus: before.status,
                paidAmount: before.paidAmount,
              },
              after: {
                reason: input.reason,
                reversalOrderId: entry.id,
                reversalOrderCode: entry.orderCode,
                assignmentStatus: after.status,
                paidAmount: after.paidAmount,
              },
            });
          }),
      );
      return toAssignment((await firstRow(assignmentQuery(db).where(eq(paymentAssignments.id, assignmentId))))!, actor.id);
    },
  };
}
