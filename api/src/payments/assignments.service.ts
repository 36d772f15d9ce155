/** Assignment writes (001 §3, §4): all refused on finished campaigns; each audited in its transaction. */
import { fullName, parseVnDateTime, type Assignment, type CreateAssignment, type MarkPaid, type UpdateAssignment } from '@doanhoi/shared';
import { and, eq, inArray, like } from 'drizzle-orm';
import { audit } from '../lib/audit';
import type { Actor, Deps } from '../lib/context';
import { badRequest, conflict, isUniqueViolation, notFound } from '../lib/errors';
import { organizationMembers, organizations } from '../organizations/schema';
import { users } from '../users/schema';
import { assertCan, P, type RequestInfo } from './access';
import { ASSIGNMENT_NOT_FOUND } from './assignments.query';
import { assignmentQuery, toAssignment, type CampaignRow } from './mappers';
import { newOrderCode } from './order-code';
import { assertWritable, loadCampaign } from './rules';
import { feeLevels, paymentAssignments, paymentOrders } from './schema';

type AssignmentRow = typeof paymentAssignments.$inferSelect;
const TABLES = ['payment_assignments', 'payment_campaigns'];
const METHOD_LABEL = { cash: 'tiền mặt', transfer: 'chuyển khoản' } as const;

function snapshot(a: AssignmentRow) {
  return { id: a.id, campaignId: a.campaignId, userId: a.userId, feeLevelId: a.feeLevelId, status: a.status, dueDate: a.dueDate, notes: a.notes, paidAt: a.paidAt, paidAmount: a.paidAmount, paymentMethod: a.paymentMethod };
}

/** A concurrent request past check() still ends as 409, not 500. */
function once<T>(write: () => T): T {
  try {
    return write();
  } catch (err) {
    if (isUniqueViolation(err)) conflict('Mỗi thành viên chỉ được phân công một lần trong một đợt thu');
    throw err;
  }
}

const dueDateOf = (v: string | null | undefined, campaign: CampaignRow) => (v ? parseVnDateTime(v, { endOfDay: true })! : campaign.endDate);

export function assignmentsService({ db }: Deps, actor: Actor, req: RequestInfo) {
  const caller = { actorId: actor.id, ip: req.ip };

  function view(id: number): Assignment {
    const row = assignmentQuery(db).where(eq(paymentAssignments.id, id)).get();
    if (!row) notFound(ASSIGNMENT_NOT_FOUND);
    return toAssignment(row!, actor.id);
  }

  /** The assignment and its campaign, refused when the campaign is finished or not the caller's to manage. */
  function writable(id: number, what: string) {
    const a = db.select().from(paymentAssignments).where(eq(paymentAssignments.id, id)).get();
    if (!a) notFound(ASSIGNMENT_NOT_FOUND);
    const campaign = loadCampaign(db, a!.campaignId);
    assertCan(db, actor, P.manage, campaign.organizationId);
    assertWritable(campaign, what);
    return { a: a!, campaign };
  }

  function names(ids: number[]): Map<number, string> {
    if (ids.length === 0) return new Map();
    const rows = db.select({ id: users.id, familyName: users.familyName, givenName: users.givenName, code: users.code }).from(users).where(inArray(users.id, ids)).all();
    return new Map(rows.map((u) => [u.id, `${fullName(u)} (${u.code})`]));
  }

  /** Which of these users are active members of the organization or one beneath it. */
  function membersUnder(orgPath: string, userIds: number[]): Set<number> {
    const rows = db
      .selectDistinct({ userId: organizationMembers.userId })
      .from(organizationMembers)
      .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
      .where(and(inArray(organizationMembers.userId, userIds), eq(organizationMembers.isActive, true), like(organizations.path, `${orgPath}%`)))
      .all();
    return new Set(rows.map((r) => r.userId));
  }

  /** Every check of 001 §5 for a batch, before anything is written (all or nothing). */
  function check(entries: CreateAssignment[]) {
    const campaigns = new Map<number, CampaignRow>();
    for (const campaignId of new Set(entries.map((e) => e.campaignId))) {
      const campaign = loadCampaign(db, campaignId);
      assertCan(db, actor, P.manage, campaign.organizationId);
      assertWritable(campaign, 'phân công thành viên');
      campaigns.set(campaignId, campaign);
    }
    const levelIds = [...new Set(entries.map((e) => e.feeLevelId))];
    const levels = new Map(db.select({ id: feeLevels.id, campaignId: feeLevels.campaignId }).from(feeLevels).where(inArray(feeLevels.id, levelIds)).all().map((l) => [l.id, l.campaignId]));
    if (entries.some((e) => levels.get(e.feeLevelId) !== e.campaignId)) badRequest('Mức phí không tồn tại hoặc không thuộc đợt thu này');

    const userIds = [...new Set(entries.map((e) => e.userId))];
    const label = names(userIds);
    const unknown = userIds.filter((id) => !label.has(id));
    if (unknown.length) badRequest(`Không tìm thấy thành viên: ${unknown.join(', ')}`);

    const seen = new Set<string>();
    const repeated = new Set<number>();
    for (const e of entries) {
      const key = `${e.campaignId}:${e.userId}`;
      if (seen.has(key)) repeated.add(e.userId);
      seen.add(key);
    }
    for (const [campaignId, campaign] of campaigns) {
      const ids = [...new Set(entries.filter((e) => e.campaignId === campaignId).map((e) => e.userId))];
      const existing = db
        .select({ userId: paymentAssignments.userId })
        .from(paymentAssignments)
        .where(and(eq(paymentAssignments.campaignId, campaignId), inArray(paymentAssignments.userId, ids)))
        .all();
      for (const r of existing) repeated.add(r.userId);
      const path = db.select({ path: organizations.path }).from(organizations).where(eq(organizations.id, campaign.organizationId)).get()!.path;
      const members = membersUnder(path, ids);
      const outside = ids.filter((id) => !members.has(id));
      if (outside.length) {
        badRequest(`Thành viên không thuộc tổ chức của đợt thu (hoặc tổ chức trực thuộc): ${outside.map((id) => label.get(id)).join(', ')}`, { userIds: outside });
      }
    }
    if (repeated.size) {
      conflict(`Mỗi thành viên chỉ được phân công một lần trong một đợt thu. Đã phân công: ${[...repeated].map((id) => label.get(id)).join(', ')}`);
    }
    return campaigns;
  }

  function insertMany(entries: CreateAssignment[], action: string): number[] {
    const campaigns = check(entries);
    const ids = once(() =>
      db.transaction((tx) => {
        const created = tx
          .insert(paymentAssignments)
          .values(
            entries.map((e) => ({
              campaignId: e.campaignId,
              userId: e.userId,
              feeLevelId: e.feeLevelId,
              notes: e.notes ?? null,
              dueDate: dueDateOf(e.dueDate, campaigns.get(e.campaignId)!),
              assignedBy: actor.id,
            })),
          )
          .returning()
          .all();
        for (const a of created) audit(tx, { ...caller, action, entity: 'payment_assignment', entityId: a.id, after: snapshot(a) });
        return created.map((a) => a.id);
      }),
    );
    return ids;
  }

  return {
    create(input: CreateAssignment): Assignment {
      return view(insertMany([input], 'assignment.create')[0]!);
    },

    bulk(entries: CreateAssignment[]) {
      const ids = insertMany(entries, 'assignment.bulk_create');
      const rows = assignmentQuery(db).where(inArray(paymentAssignments.id, ids)).all();
      return { createdCount: ids.length, assignments: rows.map((r) => toAssignment(r, actor.id)) };
    },

    update(id: number, input: UpdateAssignment): Assignment {
      const { a, campaign } = writable(id, 'sửa phân công');
      if (input.feeLevelId !== undefined && input.feeLevelId !== a.feeLevelId) {
        if (a.status === 'PAID') conflict('Không thể đổi mức phí của khoản đã thanh toán');
        const level = db.select({ campaignId: feeLevels.campaignId }).from(feeLevels).where(eq(feeLevels.id, input.feeLevelId)).get();
        if (level?.campaignId !== a.campaignId) badRequest('Mức phí không tồn tại hoặc không thuộc đợt thu này');
      }
      db.transaction((tx) => {
        const after = tx
          .update(paymentAssignments)
          .set({
            feeLevelId: input.feeLevelId ?? a.feeLevelId,
            notes: input.notes === undefined ? a.notes : input.notes,
            dueDate: input.dueDate === undefined ? a.dueDate : dueDateOf(input.dueDate, campaign),
          })
          .where(eq(paymentAssignments.id, id))
          .returning()
          .get();
        audit(tx, { ...caller, action: 'assignment.update', entity: 'payment_assignment', entityId: id, before: snapshot(a), after: snapshot(after) });
      });
      return view(id);
    },

    /** A paid assignment carries payment history and is kept. */
    remove(id: number): void {
      const { a } = writable(id, 'xóa phân công');
      const paidOrder = db.select({ id: paymentOrders.id }).from(paymentOrders).where(and(eq(paymentOrders.assignmentId, id), eq(paymentOrders.status, 'PAID'))).get();
      if (a.status === 'PAID' || paidOrder) conflict('Không thể xóa khoản phí đã có thanh toán');
      db.transaction((tx) => {
        tx.delete(paymentAssignments).where(eq(paymentAssignments.id, id)).run();
        audit(tx, { ...caller, action: 'assignment.delete', entity: 'payment_assignment', entityId: id, before: snapshot(a) });
      });
    },

    /** Records a MANUAL payment order (method, note, who, when) and marks the assignment PAID. */
    markPaid(id: number, input: MarkPaid): Assignment {
      const { a, campaign } = writable(id, 'xác nhận thanh toán');
      if (a.status === 'PAID') conflict('Khoản phí này đã được thanh toán');
      const level = db.select().from(feeLevels).where(eq(feeLevels.id, a.feeLevelId)).get()!;
      const now = new Date();
      db.transaction((tx) => {
        const order = tx
          .insert(paymentOrders)
          .values({
            orderCode: newOrderCode(tx),
            assignmentId: id,
            campaignId: a.campaignId,
            userId: a.userId,
            amount: level.amount,
            description: `Thu ${METHOD_LABEL[input.method]}: ${campaign.name}`,
            status: 'PAID',
            paymentMethod: 'MANUAL',
            manualMethod: input.method,
            note: input.note ?? null,
            recordedBy: actor.id,
            paidAt: now,
          })
          .returning()
          .get();
        // Open online links for the same fee must not be paid a second time.
        tx.update(paymentOrders)
          .set({ status: 'CANCELLED', cancelledAt: now })
          .where(and(eq(paymentOrders.assignmentId, id), eq(paymentOrders.status, 'PENDING')))
          .run();
        const after = tx
          .update(paymentAssignments)
          .set({ status: 'PAID', paidAt: now, paidAmount: level.amount, paymentMethod: 'MANUAL' })
          .where(eq(paymentAssignments.id, id))
          .returning()
          .get();
        audit(tx, {
          ...caller,
          action: 'payment.mark_paid',
          entity: 'payment_assignment',
          entityId: id,
          before: snapshot(a),
          after: { ...snapshot(after), orderId: order.id, orderCode: order.orderCode, method: input.method, note: input.note ?? null },
        });
      });
      return view(id);
    },

    markOverdue(id: number): Assignment {
      const { a } = writable(id, 'đánh dấu quá hạn');
      if (a.status !== 'PENDING') conflict('Chỉ khoản phí đang chờ thanh toán mới đánh dấu quá hạn được');
      db.transaction((tx) => {
        tx.update(paymentAssignments).set({ status: 'OVERDUE' }).where(eq(paymentAssignments.id, id)).run();
        audit(tx, { ...caller, action: 'assignment.mark_overdue', entity: 'payment_assignment', entityId: id, before: { status: a.status }, after: { status: 'OVERDUE' } });
      });
      return view(id);
    },
  };
}
