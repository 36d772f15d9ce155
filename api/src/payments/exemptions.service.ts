/**
 * Exemptions (miễn) and reductions (giảm) of one member's fee, and undoing them (issue 15.3).
 * The assignment's `amount` becomes the adjusted fee (0 when exempt) and the fee before it is kept
 * in originalAmount, so every figure built on Σ amount (statistics, dashboards, exports) follows
 * without knowing about adjustments. A link made for the old amount is closed at payOS first,
 * then locally in the write's transaction, with its audit row. Nobody adjusts their own fee (four-eyes.ts).
 */
import type { Assignment, ExemptAssignment, ReduceAssignment, RevokeAdjustment } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import { audit } from '../audit/writer';
import type { Actor, Deps } from '../lib/context';
import { conflict, fail, notFound } from '../lib/errors';
import { sandboxSettlesFees } from '../payos/origin';
import { assertCan, P, type RequestInfo } from '../access/payments';
import { ASSIGNMENT_NOT_FOUND } from './assignments.query';
import { assertNotOwnFee } from './four-eyes';
import { cancelAtPayos, closeOpenOrders, openOrders } from './links';
import { assignmentQuery, toAssignment } from './mappers';
import { recomputeAssignment, type Tx } from './money';
import { assertWritable, loadCampaign } from './rules';
import { paymentAssignments, paymentOrders } from '../db/tables/payments';
import { firstRow, runQuery, withTransaction } from '../db/engine';
import { lockFee } from './locks';

type AssignmentRow = typeof paymentAssignments.$inferSelect;

const vnd = (n: number) => `${n.toLocaleString('vi-VN')} ₫`;

function snapshot(a: AssignmentRow) {
  return {
    status: a.status,
    amount: a.amount,
    originalAmount: a.originalAmount,
    paidAmount: a.paidAmount,
    adjustment: a.adjustment,
    adjustmentReason: a.adjustmentReason,
  };
}

/** Money already counted towards the fee: an adjustment may not go below it (docs/decisions.md). */
const counted = (a: AssignmentRow) => a.paidAmount ?? 0;

export function exemptionsService(deps: Deps, actor: Actor, req: RequestInfo) {
  const { db } = deps;
  const countTest = sandboxSettlesFees(deps.env);

  async function load(id: number): Promise<AssignmentRow> {
    const a = await firstRow(db.select().from(paymentAssignments).where(eq(paymentAssignments.id, id)));
    if (!a) notFound(ASSIGNMENT_NOT_FOUND);
    const campaign = await loadCampaign(db, a!.campaignId);
    await assertCan(db, actor, P.exempt, campaign.organizationId);
    assertWritable(campaign, 'miễn/giảm phí');
    return a!;
  }

  async function view(id: number): Promise<Assignment> {
    return toAssignment((await firstRow(assignmentQuery(db).where(eq(paymentAssignments.id, id))))!, actor.id);
  }

  /** The checks of a new amount, run before payOS is asked and again inside the transaction (a racing write). */
  function checkAmount(a: AssignmentRow, amount: number) {
    if (a.status === 'EXEMPTED') conflict('Khoản phí đã được miễn: hãy hủy miễn trước khi đổi số tiền');
    if (amount >= a.amount) fail(422, `Số tiền sau giảm phải nhỏ hơn số tiền hiện tại (${vnd(a.amount)})`);
    if (counted(a) > amount) {
      conflict(
        amount === 0
          ? `Thành viên đã nộp ${vnd(counted(a))} cho khoản này: hãy hủy xác nhận thanh toán hoặc hoàn tiền trước khi miễn`
          : `Thành viên đã nộp ${vnd(counted(a))}, nhiều hơn số tiền sau giảm: hãy hủy xác nhận thanh toán hoặc hoàn tiền trước`,
      );
    }
  }

  /** Applies a new amount: closes the open link, writes, recomputes the status, audits; all in one transaction. */
  async function apply(id: number, amount: number, reason: string, action: 'assignment.exempt' | 'assignment.reduce'): Promise<Assignment> {
    const a = await load(id);
    assertNotOwnFee(actor, a.userId, amount === 0 ? 'miễn phí' : 'giảm phí');
    checkAmount(a, amount);
    const links = await openOrders(db, eq(paymentOrders.assignmentId, id));
    await cancelAtPayos(deps, links, amount === 0 ? 'Khoản phí được miễn' : 'Khoản phí được giảm');
    const now = new Date();
    await withTransaction(db, async (tx) => {
      await lockFee(tx, { campaignId: a.campaignId, assignmentId: id });
      assertWritable(await loadCampaign(tx, a.campaignId), 'miễn/giảm phí');
      const current = await firstRow(tx.select().from(paymentAssignments).where(eq(paymentAssignments.id, id)));
      if (!current) notFound(ASSIGNMENT_NOT_FOUND);
      // payOS was slow: a payment or another adjustment may have landed since the first check.
      checkAmount(current!, amount);
      if (current!.amount !== a.amount || counted(current!) !== counted(a))
        conflict('Khoản phí vừa thay đổi (thanh toán hoặc miễn/giảm), vui lòng tải lại');
      await closeOpenOrders(tx, eq(paymentOrders.assignmentId, id), now, links);
      await runQuery(
        tx
          .update(paymentAssignments)
          .set({
            amount,
            // A second reduction keeps the fee as it was before any adjustment.
            originalAmount: current!.originalAmount ?? current!.amount,
            adjustment: amount === 0 ? 'EXEMPTED' : 'REDUCED',
            adjustmentReason: reason,
            adjustedBy: actor.id,
            adjustedAt: now,
            ...(amount === 0 ? { status: 'EXEMPTED' as const } : {}),
          })
          .where(eq(paymentAssignments.id, id)),
      );
      const after =
        amount === 0
          ? (await firstRow(tx.select().from(paymentAssignments).where(eq(paymentAssignments.id, id))))!
          : (await recomputeAssignment(tx, id, countTest))!;
      await write(tx, action, id, current!, after, reason);
    });
    return view(id);
  }

  async function write(tx: Tx, action: string, id: number, before: AssignmentRow, after: AssignmentRow, reason: string) {
    await audit(tx, {
      actorId: actor.id,
      ip: req.ip,
      action,
      entity: 'payment_assignment',
      entityId: id,
      before: snapshot(before),
      after: { ...snapshot(after), reason },
    });
  }

  return {
    exempt(id: number, input: ExemptAssignment) {
      return apply(id, 0, input.reason, 'assignment.exempt');
    },

    reduce(id: number, input: ReduceAssignment) {
      return apply(id, input.amount, input.reason, 'assignment.reduce');
    },

    /** The fee goes back to its original amount and is payable again; the reason is kept in the audit log. */
    async revoke(id: number, input: RevokeAdjustment): Promise<Assignment> {
      const a = await load(id);
      if (!a.adjustment) conflict('Khoản phí này không được miễn/giảm');
      // A link made for the reduced amount would leave a balance: close it.
      const links = await openOrders(db, eq(paymentOrders.assignmentId, id));
      await cancelAtPayos(deps, links, 'Hủy miễn/giảm phí');
      await withTransaction(db, async (tx) => {
        await lockFee(tx, { campaignId: a.campaignId, assignmentId: id });
        assertWritable(await loadCampaign(tx, a.campaignId), 'miễn/giảm phí');
        const current = await firstRow(tx.select().from(paymentAssignments).where(eq(paymentAssignments.id, id)));
        if (!current) notFound(ASSIGNMENT_NOT_FOUND);
        if (!current!.adjustment) conflict('Khoản phí này vừa được hủy miễn/giảm');
        if (current!.amount !== a.amount || current!.adjustment !== a.adjustment) conflict('Khoản phí vừa thay đổi, vui lòng tải lại');
        await closeOpenOrders(tx, eq(paymentOrders.assignmentId, id), new Date(), links);
        await runQuery(
          tx
            .update(paymentAssignments)
            .set({
              amount: current!.originalAmount ?? current!.amount,
              originalAmount: null,
              adjustment: null,
              adjustmentReason: null,
              adjustedBy: null,
              adjustedAt: null,
              ...(current!.status === 'EXEMPTED' ? { status: 'PENDING' as const } : {}),
            })
            .where(eq(paymentAssignments.id, id)),
        );
        const after = (await recomputeAssignment(tx, id, countTest))!;
        await write(tx, 'assignment.revoke_adjustment', id, current!, after, input.reason);
      });
      return view(id);
    },
  };
}
