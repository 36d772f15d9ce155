/** Assignment writes (001 §3, §4): all refused on finished campaigns; each audited in its transaction. */
import { fullName, parseVnDateTime, type Assignment, type CreateAssignment, type MarkPaid, type UpdateAssignment } from '@doanhoi/shared';
import { and, eq, inArray, isNull, like } from 'drizzle-orm';
import { audit } from '../audit/writer';
import type { Actor, Deps } from '../lib/context';
import { badRequest, conflict, conflictOnUnique, fail, notFound } from '../lib/errors';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { users } from '../db/tables/users';
import { assertCan, P, type RequestInfo } from '../access/payments';
import { holdsMoney } from './assignment-deletable';
import { ASSIGNMENT_NOT_FOUND } from './assignments.query';
import { assignmentQuery, toAssignment, type CampaignRow } from './mappers';
import { newOrderCode } from './order-code';
import { cancelAtPayos, closeOpenOrders, openOrders } from './links';
import { attentionFor, recomputeAssignment } from './money';
import { sandboxSettlesFees } from '../payos/origin';
import { assertNotOwnFee } from './four-eyes';
import { assertWritable, loadCampaign } from './rules';
import { feeLevels, paymentAssignments, paymentOrders } from '../db/tables/payments';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';
import { lockFee } from './locks';
import { snapshot } from './assignment-snapshot';

const METHOD_LABEL = { cash: 'tiền mặt', transfer: 'chuyển khoản' } as const;

/** A concurrent request past check() still ends as 409, not 500. */
async function once<T>(write: () => T | Promise<T>): Promise<T> {
  return conflictOnUnique('Mỗi thành viên chỉ được phân công một lần trong một đợt thu', write);
}

const dueDateOf = (v: string | null | undefined, campaign: CampaignRow) => (v ? parseVnDateTime(v, { endOfDay: true })! : campaign.endDate);

export function assignmentsService(deps: Deps, actor: Actor, req: RequestInfo) {
  const { db } = deps;
  const caller = { actorId: actor.id, ip: req.ip };

  async function view(id: number): Promise<Assignment> {
    const row = await firstRow(assignmentQuery(db).where(eq(paymentAssignments.id, id)));
    if (!row) notFound(ASSIGNMENT_NOT_FOUND);
    return toAssignment(row!, actor.id);
  }

  /** The assignment and its campaign, refused when the campaign is finished or not the caller's to manage. */
  async function writable(id: number, what: string) {
    const a = await firstRow(db.select().from(paymentAssignments).where(eq(paymentAssignments.id, id)));
    if (!a) notFound(ASSIGNMENT_NOT_FOUND);
    const campaign = await loadCampaign(db, a!.campaignId);
    await assertCan(db, actor, P.manage, campaign.organizationId);
    assertWritable(campaign, what);
    return { a: a!, campaign };
  }

  async function names(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await allRows(
      db
        .select({ id: users.id, familyName: users.familyName, givenName: users.givenName, code: users.code })
        .from(users)
        .where(inArray(users.id, ids)),
    );
    return new Map(rows.map((u) => [u.id, `${fullName(u)} (${u.code})`]));
  }

  /** Which of these users are active members of the organization or one beneath it. */
  async function membersUnder(orgPath: string, userIds: number[]): Promise<Set<number>> {
    const rows = await allRows(
      db
        .selectDistinct({ userId: organizationMembers.userId })
        .from(organizationMembers)
        .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
        .where(
          and(
            inArray(organizationMembers.userId, userIds),
            eq(organizationMembers.isActive, true),
            like(organizations.path, `${orgPath}%`),
          ),
        ),
    );
    return new Set(rows.map((r) => r.userId));
  }

  /** Every check of 001 §5 for a batch, before anything is written (all or nothing). */
  async function check(entries: CreateAssignment[]) {
    const campaigns = new Map<number, CampaignRow>();
    for (const campaignId of new Set(entries.map((e) => e.campaignId))) {
      const campaign = await loadCampaign(db, campaignId);
      await assertCan(db, actor, P.manage, campaign.organizationId);
      assertWritable(campaign, 'phân công thành viên');
      campaigns.set(campaignId, campaign);
    }
    const levelIds = [...new Set(entries.map((e) => e.feeLevelId))];
    const levels = new Map(
      (
        await allRows(
          db
            .select({ id: feeLevels.id, campaignId: feeLevels.campaignId, amount: feeLevels.amount })
            .from(feeLevels)
            .where(inArray(feeLevels.id, levelIds)),
        )
      ).map((l) => [l.id, l]),
    );
    if (entries.some((e) => levels.get(e.feeLevelId)?.campaignId !== e.campaignId))
      badRequest('Mức phí không tồn tại hoặc không thuộc đợt thu này');

    const userIds = [...new Set(entries.map((e) => e.userId))];
    const label = await names(userIds);

    const seen = new Set<string>();
    const repeated = new Set<number>();
    for (const e of entries) {
      const key = `${e.campaignId}:${e.userId}`;
      if (seen.has(key)) repeated.add(e.userId);
      seen.add(key);
    }
    for (const [campaignId, campaign] of campaigns) {
      const ids = [...new Set(entries.filter((e) => e.campaignId === campaignId).map((e) => e.userId))];
      const existing = await allRows(
        db
          .select({ userId: paymentAssignments.userId })
          .from(paymentAssignments)
          .where(and(eq(paymentAssignments.campaignId, campaignId), inArray(paymentAssignments.userId, ids))),
      );
      for (const r of existing) repeated.add(r.userId);
      const path = (await firstRow(
        db.select({ path: organizations.path }).from(organizations).where(eq(organizations.id, campaign.organizationId)),
      ))!.path;
      const members = await membersUnder(path, ids);
      // Unknown users and users outside the campaign's organization get the same answer, by id only:
      // naming them would show who exists elsewhere (issue 10).
      const outside = ids.filter((id) => !members.has(id));
      if (outside.length) {
        badRequest(`Không tìm thấy thành viên trong tổ chức của đợt thu (hoặc tổ chức trực thuộc): ${outside.join(', ')}`, {
          userIds: outside,
        });
      }
    }
    if (repeated.size) {
      conflict(
        `Mỗi thành viên chỉ được phân công một lần trong một đợt thu. Đã phân công: ${[...repeated].map((id) => label.get(id)).join(', ')}`,
      );
    }
    return { campaigns, levels };
  }

  async function insertMany(entries: CreateAssignment[], action: string): Promise<number[]> {
    const { campaigns, levels } = await check(entries);
    const ids = await once(
      async () =>
        await withTransaction(db, async (tx) => {
          const created = await allRows(
            tx
              .insert(paymentAssignments)
              .values(
                entries.map((e) => ({
                  campaignId: e.campaignId,
                  userId: e.userId,
                  feeLevelId: e.feeLevelId,
                  amount: levels.get(e.feeLevelId)!.amount,
                  notes: e.notes ?? null,
                  dueDate: dueDateOf(e.dueDate, campaigns.get(e.campaignId)!),
                  assignedBy: actor.id,
                })),
              )
              .returning(),
          );
          for (const a of created) await audit(tx, { ...caller, action, entity: 'payment_assignment', entityId: a.id, after: snapshot(a) });
          return created.map((a) => a.id);
        }),
    );
    return ids;
  }

  return {
    async create(input: CreateAssignment): Promise<Assignment> {
      return view((await insertMany([input], 'assignment.create'))[0]!);
    },

    async bulk(entries: CreateAssignment[]) {
      const ids = await insertMany(entries, 'assignment.bulk_create');
      const rows = await allRows(assignmentQuery(db).where(inArray(paymentAssignments.id, ids)));
      return { createdCount: ids.length, assignments: rows.map((r) => toAssignment(r, actor.id)) };
    },

    /** A fee-level change moves the amount while nothing was received, and closes the open link (issue 11.2). */
    async update(id: number, input: UpdateAssignment): Promise<Assignment> {
      const { a, campaign } = await writable(id, 'sửa phân công');
      let amount = a.amount;
      const levelChange = input.feeLevelId !== undefined && input.feeLevelId !== a.feeLevelId;
      if (levelChange) {
        if (a.status === 'PAID' || (a.paidAmount ?? 0) > 0) conflict('Không thể đổi mức phí của khoản đã có thanh toán');
        if (a.adjustment) conflict('Khoản phí đang được miễn/giảm: hãy hủy miễn/giảm trước khi đổi mức phí');
        const level = await firstRow(
          db
            .select({ campaignId: feeLevels.campaignId, amount: feeLevels.amount })
            .from(feeLevels)
            .where(eq(feeLevels.id, input.feeLevelId!)),
        );
        if (level?.campaignId !== a.campaignId) badRequest('Mức phí không tồn tại hoặc không thuộc đợt thu này');
        amount = level!.amount;
      }
      const links = amount !== a.amount ? await openOrders(db, eq(paymentOrders.assignmentId, id)) : [];
      if (amount !== a.amount) await cancelAtPayos(deps, links, 'Số tiền khoản phí đã thay đổi');
      await withTransaction(db, async (tx) => {
        await lockFee(tx, { campaignId: a.campaignId, assignmentId: id });
        assertWritable(await loadCampaign(tx, a.campaignId), 'sửa phân công');
        if (levelChange) {
          // Read again after payOS: money or an adjustment that landed meanwhile keeps the amount.
          const current = await firstRow(tx.select().from(paymentAssignments).where(eq(paymentAssignments.id, id)));
          if (!current) notFound(ASSIGNMENT_NOT_FOUND);
          if (current!.status === 'PAID' || (current!.paidAmount ?? 0) > 0 || current!.adjustment || current!.amount !== a.amount)
            conflict('Khoản phí vừa thay đổi (thanh toán hoặc miễn/giảm), vui lòng tải lại');
        }
        if (amount !== a.amount) await closeOpenOrders(tx, eq(paymentOrders.assignmentId, id), new Date(), links);
        const after = await firstRow(
          tx
            .update(paymentAssignments)
            .set({
              feeLevelId: input.feeLevelId ?? a.feeLevelId,
              amount,
              notes: input.notes === undefined ? a.notes : input.notes,
              dueDate: input.dueDate === undefined ? a.dueDate : dueDateOf(input.dueDate, campaign),
            })
            .where(eq(paymentAssignments.id, id))
            .returning(),
        );
        await audit(tx, {
          ...caller,
          action: 'assignment.update',
          entity: 'payment_assignment',
          entityId: id,
          before: snapshot(a),
          after: snapshot(after),
        });
      });
      return view(id);
    },

    /** An assignment with money records is kept (the answer's canDelete: assignment-deletable.ts); its open link is closed at payOS before it goes. */
    async remove(id: number): Promise<void> {
      const { a } = await writable(id, 'xóa phân công');
      // Deleting one's own unpaid fee waives it as surely as an exemption (issue 25 item 10).
      assertNotOwnFee(actor, a.userId, 'xóa phân công');
      const money = await firstRow(
        db
          .select({ id: paymentOrders.id })
          .from(paymentOrders)
          .where(and(eq(paymentOrders.assignmentId, id), holdsMoney())),
      );
      if (a.status === 'PAID' || money) conflict('Không thể xóa khoản phí đã có thanh toán');
      // Its orders go with it, so a payment on a link left open could not be recorded: payOS must confirm the close.
      const links = await openOrders(db, eq(paymentOrders.assignmentId, id));
      const failed = await cancelAtPayos(deps, links, 'Khoản phí đã bị xóa');
      await withTransaction(db, async (tx) => {
        // Locked first: a payment settling at this moment would otherwise go with the assignment (its orders cascade).
        await lockFee(tx, { campaignId: a.campaignId, assignmentId: id });
        // Read again after payOS: money that arrived meanwhile would go with the assignment (its orders cascade).
        const paid = await firstRow(
          tx
            .select({ id: paymentOrders.id })
            .from(paymentOrders)
            .where(and(eq(paymentOrders.assignmentId, id), holdsMoney())),
        );
        const current = await firstRow(
          tx.select({ status: paymentAssignments.status }).from(paymentAssignments).where(eq(paymentAssignments.id, id)),
        );
        if (!current) notFound(ASSIGNMENT_NOT_FOUND);
        if (paid || current!.status === 'PAID') conflict('Khoản phí vừa có thanh toán, không thể xóa');
        if (failed.length) fail(502, 'Không đóng được link thanh toán đang mở tại PayOS, vui lòng thử lại sau');
        await closeOpenOrders(tx, eq(paymentOrders.assignmentId, id), new Date(), links);
        await runQuery(tx.delete(paymentAssignments).where(eq(paymentAssignments.id, id)));
        await audit(tx, { ...caller, action: 'assignment.delete', entity: 'payment_assignment', entityId: id, before: snapshot(a) });
      });
    },

    /**
     * Records a MANUAL payment order (method, amount received, note, who, when) and recomputes the
     * assignment. The open online links are cancelled at payOS first, then here. payOS is slow, so
     * what the decision rests on (status, amount, money counted) is read again in the writing
     * transaction and claimed with a conditional update: a second click, a payment or an exemption
     * that landed meanwhile ends as 409, never as a second payment (issue 25, item 1).
     */
    async markPaid(id: number, input: MarkPaid): Promise<Assignment> {
      const { a, campaign } = await writable(id, 'xác nhận thanh toán');
      assertNotOwnFee(actor, a.userId, 'xác nhận thanh toán');
      if (a.status === 'PAID') conflict('Khoản phí này đã được thanh toán');
      if (a.status === 'EXEMPTED') conflict('Khoản phí này đã được miễn');
      const remaining = Math.max(0, a.amount - (a.paidAmount ?? 0));
      const received = input.amount ?? remaining;
      const links = await openOrders(db, eq(paymentOrders.assignmentId, id));
      await cancelAtPayos(deps, links, 'Đã thu trực tiếp');
      const now = new Date();
      await withTransaction(db, async (tx) => {
        await lockFee(tx, { campaignId: a.campaignId, assignmentId: id });
        // The campaign may have closed while payOS was asked.
        assertWritable(await loadCampaign(tx, a.campaignId), 'xác nhận thanh toán');
        const claimed = await firstRow(
          tx
            .update(paymentAssignments)
            .set({ updatedAt: now })
            .where(
              and(
                eq(paymentAssignments.id, id),
                inArray(paymentAssignments.status, ['PENDING', 'OVERDUE']),
                eq(paymentAssignments.amount, a.amount),
                a.paidAmount === null ? isNull(paymentAssignments.paidAmount) : eq(paymentAssignments.paidAmount, a.paidAmount),
              ),
            )
            .returning(),
        );
        if (!claimed) {
          const current = await firstRow(
            tx.select({ status: paymentAssignments.status }).from(paymentAssignments).where(eq(paymentAssignments.id, id)),
          );
          if (current?.status === 'PAID') conflict('Khoản phí này vừa được thanh toán');
          if (current?.status === 'EXEMPTED') conflict('Khoản phí này vừa được miễn');
          conflict('Khoản phí vừa thay đổi (số tiền hoặc khoản đã nộp), vui lòng tải lại rồi xác nhận lại');
        }
        await closeOpenOrders(tx, eq(paymentOrders.assignmentId, id), now, links);
        const flag = attentionFor({ received, owed: remaining, campaignCancelled: false, hadMoney: false });
        const order = await firstRow(
          tx
            .insert(paymentOrders)
            .values({
              orderCode: await newOrderCode(tx),
              assignmentId: id,
              campaignId: a.campaignId,
              userId: a.userId,
              amount: remaining,
              receivedAmount: received,
              // Cash counted by the treasurer: a different amount is their own record, not a surprise to flag,
              // except an excess, which is someone's money to give back.
              ...(flag.attention === 'REFUND_DUE' ? flag : {}),
              description: `Thu ${METHOD_LABEL[input.method]}: ${campaign.name}`,
              status: 'PAID',
              paymentMethod: 'MANUAL',
              manualMethod: input.method,
              note: input.note ?? null,
              recordedBy: actor.id,
              paidAt: now,
            })
            .returning(),
        );
        const after = (await recomputeAssignment(tx, id, sandboxSettlesFees(deps.env)))!;
        await audit(tx, {
          ...caller,
          action: 'payment.mark_paid',
          entity: 'payment_assignment',
          entityId: id,
          before: snapshot(a),
          after: {
            ...snapshot(after),
            orderId: order.id,
            orderCode: order.orderCode,
            method: input.method,
            received,
            note: input.note ?? null,
          },
        });
      });
      return view(id);
    },

    async markOverdue(id: number): Promise<Assignment> {
      const { a } = await writable(id, 'đánh dấu quá hạn');
      if (a.status !== 'PENDING') conflict('Chỉ khoản phí đang chờ thanh toán mới đánh dấu quá hạn được');
      await withTransaction(db, async (tx) => {
        // Conditional: a payment that landed since the check keeps its PAID.
        const marked = await firstRow(
          tx
            .update(paymentAssignments)
            .set({ status: 'OVERDUE' })
            .where(and(eq(paymentAssignments.id, id), eq(paymentAssignments.status, 'PENDING')))
            .returning({ id: paymentAssignments.id }),
        );
        if (!marked) conflict('Khoản phí vừa thay đổi trạng thái, vui lòng tải lại');
        await audit(tx, {
          ...caller,
          action: 'assignment.mark_overdue',
          entity: 'payment_assignment',
          entityId: id,
          before: { status: a.status },
          after: { status: 'OVERDUE' },
        });
      });
      return view(id);
    },
  };
}
