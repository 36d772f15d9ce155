/**
 * Reminders for one caller (issue 15.2). Routes check send_reminders / read in the campaign's
 * organization; this service adds the campaign state rules, the outbox scope and the member's own view.
 */
import {
  hasPermission,
  holdsAnywhere,
  type MyReminder,
  type OutboxItem,
  type OutboxQuery,
  type ReminderItem,
  type ReminderScheduleInput,
  type SendRemindersInput,
} from '@doanhoi/shared';
import { and, count, desc, eq, inArray, max, sql, type SQL } from 'drizzle-orm';
import { alias, type SQLiteSelect } from 'drizzle-orm/sqlite-core';
import type { Actor, Deps } from '../lib/context';
import { audit } from '../audit/writer';
import { conflict, forbidden, notFound } from '../lib/errors';
import { totalPages } from '../lib/totals';
import { organizations } from '../db/tables/organizations';
import { orgScope, scopeCondition, type RequestInfo } from '../access/payments';
import { iso } from '../payments/mappers';
import { loadCampaign } from '../payments/rules';
import { paymentAssignments, paymentCampaigns } from '../db/tables/payments';
import { users } from '../db/tables/users';
import { remind, stillOwed, UNPAID } from './send';
import { emailOutbox, paymentReminders, reminderSchedules } from '../db/tables/reminders';

import { SEND_REMINDERS, VIEW_LOGS } from './codes';
import { resendBlock } from './resend';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';
import { mapInOrder } from '../lib/in-order';
import { scopeHolds } from '../access/scope';

export { SEND_REMINDERS, VIEW_LOGS };

const sender = alias(users, 'sender');
const person = (u: { id: number; familyName: string; givenName: string; code: string }) => ({
  id: u.id,
  familyName: u.familyName,
  givenName: u.givenName,
  code: u.code,
});

export function remindersService(deps: Deps, actor: Actor, req: RequestInfo) {
  const { db } = deps;
  return {
    async send(campaignId: number, input: SendRemindersInput) {
      const c = await loadCampaign(db, campaignId);
      // Only an open campaign can be paid (orders.service.ts), so only it is worth a reminder.
      if (c.status !== 'ACTIVE') conflict('Chỉ gửi nhắc nhở được cho đợt thu đang hoạt động');
      return remind(deps, { campaignId, kind: 'MANUAL', sentBy: actor.id, ip: req.ip, assignmentIds: input.assignmentIds });
    },

    async schedule(campaignId: number): Promise<ReminderScheduleInput> {
      await loadCampaign(db, campaignId);
      const row = await firstRow(db.select().from(reminderSchedules).where(eq(reminderSchedules.campaignId, campaignId)));
      return { daysBefore: row?.daysBefore ?? null, onOverdue: row?.onOverdue ?? false };
    },

    async saveSchedule(campaignId: number, input: ReminderScheduleInput): Promise<ReminderScheduleInput> {
      const c = await loadCampaign(db, campaignId);
      if (c.status === 'COMPLETED' || c.status === 'CANCELLED') conflict('Đợt thu đã kết thúc: không thể đổi lịch nhắc nhở');
      await withTransaction(db, async (tx) => {
        const before = await firstRow(tx.select().from(reminderSchedules).where(eq(reminderSchedules.campaignId, campaignId)));
        const values = { campaignId, daysBefore: input.daysBefore, onOverdue: input.onOverdue, updatedBy: actor.id };
        await runQuery(
          tx
            .insert(reminderSchedules)
            .values(values)
            .onConflictDoUpdate({
              target: reminderSchedules.campaignId,
              set: { daysBefore: values.daysBefore, onOverdue: values.onOverdue, updatedBy: actor.id, updatedAt: new Date() },
            }),
        );
        await audit(tx, {
          actorId: actor.id,
          ip: req.ip,
          action: 'reminder.schedule',
          entity: 'payment_campaign',
          entityId: campaignId,
          before: before ? { daysBefore: before.daysBefore, onOverdue: before.onOverdue } : null,
          after: input,
        });
      });
      return input;
    },

    /** Who was reminded when, by whom, newest first. */
    async history(campaignId: number, q: { page: number; limit: number }) {
      await loadCampaign(db, campaignId);
      const r = paymentReminders;
      const total = (await firstRow(db.select({ n: count() }).from(r).where(eq(r.campaignId, campaignId))))!.n;
      const rows = await allRows(
        db
          .select({ r, user: users, sender, emailStatus: emailOutbox.status })
          .from(r)
          .innerJoin(users, eq(users.id, r.userId))
          .leftJoin(sender, eq(sender.id, r.sentBy))
          .leftJoin(emailOutbox, eq(emailOutbox.reminderId, r.id))
          .where(eq(r.campaignId, campaignId))
          .orderBy(desc(r.id))
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
      );
      const reminders: ReminderItem[] = rows.map((x) => ({
        id: x.r.id,
        assignmentId: x.r.assignmentId,
        kind: x.r.kind,
        amount: x.r.amount,
        dueDate: iso(x.r.dueDate),
        createdAt: iso(x.r.createdAt)!,
        user: person(x.user),
        sentBy: x.sender ? person(x.sender) : null,
        emailStatus: x.emailStatus ?? null,
      }));
      return { reminders, page: q.page, limit: q.limit, total, totalPages: totalPages(total, q.limit) };
    },

    /**
     * E-mails of campaigns where the caller sends reminders; every one with system.view_logs.
     * organizationId narrows to that organization's subtree and is refused outside the caller's reach.
     */
    async outbox(q: OutboxQuery) {
      const all = hasPermission(actor.roles, VIEW_LOGS, null);
      if (!all && !holdsAnywhere(actor.roles, SEND_REMINDERS)) forbidden();
      const scope = all ? ({ all: true } as const) : await orgScope(db, actor, SEND_REMINDERS);
      let within: SQL | undefined;
      if (q.organizationId !== undefined) {
        const org =
          (await firstRow(db.select({ path: organizations.path }).from(organizations).where(eq(organizations.id, q.organizationId)))) ??
          notFound('Tổ chức không tồn tại');
        if (!scopeHolds(scope, org.path)) forbidden();
        within = scopeCondition({ all: false, paths: [org.path] }, organizations.path);
      }
      const where = and(
        q.campaignId ? eq(emailOutbox.campaignId, q.campaignId) : undefined,
        q.status ? eq(emailOutbox.status, q.status) : undefined,
        scope.all ? undefined : scopeCondition(scope, organizations.path),
        within,
      );
      const joined = <T extends SQLiteSelect>(query: T) =>
        query
          .leftJoin(paymentCampaigns, eq(paymentCampaigns.id, emailOutbox.campaignId))
          .leftJoin(organizations, eq(organizations.id, paymentCampaigns.organizationId));
      const total = (await firstRow(joined(db.select({ n: count() }).from(emailOutbox).$dynamic()).where(where)))!.n;
      const rows = await allRows(
        joined(
          db
            .select({
              e: emailOutbox,
              campaign: { id: paymentCampaigns.id, name: paymentCampaigns.name, status: paymentCampaigns.status },
              organization: { id: organizations.id, name: organizations.name },
              feeStatus: paymentAssignments.status,
            })
            .from(emailOutbox)
            .$dynamic(),
        )
          .leftJoin(paymentReminders, eq(paymentReminders.id, emailOutbox.reminderId))
          .leftJoin(paymentAssignments, eq(paymentAssignments.id, paymentReminders.assignmentId))
          .where(where)
          .orderBy(desc(emailOutbox.id))
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
      );
      const emails: OutboxItem[] = await mapInOrder(rows, async ({ e, campaign, organization, feeStatus }) => {
        // Why "Gửi lại" is not offered (issue 26 item 9); only for kept or failed e-mails.
        const block =
          e.status === 'OUTBOX' || e.status === 'FAILED'
            ? await resendBlock(deps, actor, {
                campaignId: e.campaignId,
                status: e.status,
                organizationId: organization?.id ?? null,
                campaignStatus: campaign?.status ?? null,
                feeStatus,
              })
            : null;
        return {
          id: e.id,
          campaignId: e.campaignId,
          to: e.toAddress,
          subject: e.subject,
          text: e.text,
          status: e.status,
          error: e.error,
          createdAt: iso(e.createdAt)!,
          sentAt: iso(e.sentAt),
          campaign: campaign?.id != null ? { id: campaign.id, name: campaign.name } : null,
          organization: organization?.id != null ? organization : null,
          canResend: (e.status === 'OUTBOX' || e.status === 'FAILED') && block === null,
          resendBlockedReason: block === 'FORBIDDEN' ? null : block,
        };
      });
      return {
        emails,
        smtpConfigured: Boolean(deps.env.SMTP_URL),
        page: q.page,
        limit: q.limit,
        total,
        totalPages: totalPages(total, q.limit),
      };
    },

    /** The caller's own unpaid fees that were reminded, with what is owed now (shown until paid). */
    async mine(): Promise<MyReminder[]> {
      const a = paymentAssignments;
      const latest = db
        .select({ assignmentId: paymentReminders.assignmentId, remindedAt: max(paymentReminders.createdAt).as('reminded_at') })
        .from(paymentReminders)
        .where(eq(paymentReminders.userId, actor.id))
        .groupBy(paymentReminders.assignmentId)
        .as('latest');
      const rows = await allRows(
        db
          .select({
            assignmentId: a.id,
            campaignId: a.campaignId,
            campaignName: paymentCampaigns.name,
            amount: stillOwed,
            dueDate: sql<number | null>`coalesce(${a.dueDate}, ${paymentCampaigns.endDate})`,
            remindedAt: latest.remindedAt,
          })
          .from(latest)
          .innerJoin(a, eq(a.id, latest.assignmentId))
          .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, a.campaignId))
          .where(and(eq(a.userId, actor.id), inArray(a.status, [...UNPAID]), eq(paymentCampaigns.status, 'ACTIVE')))
          .orderBy(desc(latest.remindedAt)),
      );
      return rows.map((r) => ({
        ...r,
        dueDate: r.dueDate == null ? null : new Date(r.dueDate).toISOString(),
        remindedAt: new Date(Number(r.remindedAt)).toISOString(),
      }));
    },
  };
}
