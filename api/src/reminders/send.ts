/**
 * The one place reminders are made, for a treasurer's click and for the schedule alike. The
 * interval rule is part of the INSERT itself (NOT EXISTS a reminder of this member in this
 * campaign since the cut-off), so two calls at once, from any connection, cannot both remind.
 */
import type { ReminderKind, SendRemindersResult } from '@doanhoi/shared';
import { fullName } from '@doanhoi/shared';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../lib/context';
import { audit } from '../lib/audit';
import { organizations } from '../organizations/schema';
import { paymentAssignments, paymentCampaigns } from '../payments/schema';
import { users } from '../users/schema';
import { deliver, initialEmailStatus, reminderEmail } from './mailer';
import { emailOutbox, paymentReminders } from './schema';

const HOUR_MS = 3_600_000;
/** Unpaid: still something to collect. */
export const UNPAID = ['PENDING', 'OVERDUE'] as const;

export interface RemindOptions {
  campaignId: number;
  kind: ReminderKind;
  /** null: the schedule. */
  sentBy: number | null;
  ip?: string | null;
  /** Only these assignments (a selection); otherwise every unpaid one. */
  assignmentIds?: number[];
  /** More conditions on the assignment and its campaign (the schedule's windows). */
  where?: SQL;
  now?: Date;
}

export async function remind(deps: Deps, o: RemindOptions): Promise<SendRemindersResult> {
  const { db, env } = deps;
  const now = o.now ?? new Date();
  const cutoff = new Date(now.getTime() - env.REMINDER_MIN_INTERVAL_HOURS * HOUR_MS);
  const a = paymentAssignments;
  const targeted = and(eq(a.campaignId, o.campaignId), o.assignmentIds ? inArray(a.id, o.assignmentIds) : undefined, o.where);
  const status = initialEmailStatus(env);

  const result = db.transaction((tx) => {
    const candidates = tx
      .select({ id: a.id, status: a.status })
      .from(a)
      .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, a.campaignId))
      .where(and(targeted, inArray(a.status, [...UNPAID])))
      .all();
    const skippedPaid = o.assignmentIds ? o.assignmentIds.length - candidates.length : 0;
    const recent = sql`exists (select 1 from ${paymentReminders} r where r.campaign_id = ${a.campaignId} and r.user_id = ${a.userId} and r.created_at > ${cutoff.getTime()})`;
    const inserted = tx
      .insert(paymentReminders)
      .select(
        tx
          .select({
            // insert…select takes every column in table order; a null id lets SQLite number the row.
            id: sql`null`.as('id'),
            campaignId: a.campaignId,
            assignmentId: a.id,
            userId: a.userId,
            sentBy: sql`${o.sentBy}`.as('sent_by'),
            kind: sql`${o.kind}`.as('kind'),
            amount: sql`max(${a.amount} - coalesce(${a.paidAmount}, 0), 0)`.as('amount'),
            dueDate: sql`coalesce(${a.dueDate}, ${paymentCampaigns.endDate})`.as('due_date'),
            createdAt: sql`${now.getTime()}`.as('created_at'),
          })
          .from(a)
          .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, a.campaignId))
          .where(and(targeted, inArray(a.status, [...UNPAID]), sql`not ${recent}`)),
      )
      .returning()
      .all();
    const outboxIds: number[] = [];
    if (inserted.length > 0) {
      const people = new Map(
        tx
          .select({ id: users.id, email: users.email, familyName: users.familyName, givenName: users.givenName })
          .from(users)
          .where(
            inArray(
              users.id,
              inserted.map((r) => r.userId),
            ),
          )
          .all()
          .map((u) => [u.id, u]),
      );
      const campaign = tx
        .select({ name: paymentCampaigns.name, organizationName: organizations.name })
        .from(paymentCampaigns)
        .leftJoin(organizations, eq(organizations.id, paymentCampaigns.organizationId))
        .where(eq(paymentCampaigns.id, o.campaignId))
        .get()!;
      for (const r of inserted) {
        const u = people.get(r.userId);
        if (!u?.email) continue;
        const mail = reminderEmail(env, { name: fullName(u), campaignName: campaign.name, organizationName: campaign.organizationName, amount: r.amount, dueDate: r.dueDate });
        const row = tx
          .insert(emailOutbox)
          .values({ campaignId: o.campaignId, reminderId: r.id, toAddress: u.email, subject: mail.subject, text: mail.text, status, createdAt: now })
          .returning({ id: emailOutbox.id })
          .get();
        outboxIds.push(row.id);
      }
    }
    const skippedRecent = candidates.length - inserted.length;
    if (inserted.length > 0 || o.sentBy != null) {
      audit(tx, {
        actorId: o.sentBy,
        ip: o.ip ?? null,
        action: 'reminder.send',
        entity: 'payment_campaign',
        entityId: o.campaignId,
        after: { kind: o.kind, sent: inserted.length, skippedRecent, skippedPaid, assignmentIds: inserted.map((r) => r.assignmentId).slice(0, 500) },
      });
    }
    return { sent: inserted.length, skippedRecent, skippedPaid, outboxIds };
  });

  // SMTP after the commit: the reminders stand whatever the mail server says.
  const mail = await deliver(db, env, result.outboxIds);
  return {
    sent: result.sent,
    skippedRecent: result.skippedRecent,
    skippedPaid: result.skippedPaid,
    emailed: mail.sent,
    outboxed: status === 'OUTBOX' ? result.outboxIds.length : 0,
    failed: mail.failed,
  };
}
