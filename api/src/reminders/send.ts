/**
 * The one place reminders are made, for a treasurer's click and for the schedule alike. The
 * interval rule is part of the INSERT itself (NOT EXISTS a reminder of this member in this
 * campaign since the cut-off), so two calls at once, from any connection, cannot both remind.
 * So are the rules against using reminders as a mail cannon (issue 25 item 15): at most
 * REMINDER_MAX_PER_MEMBER_PER_DAY reminders per member over every campaign in 24 hours, and only
 * to members still active inside the campaign organization's subtree.
 */
import type { ReminderKind, SendRemindersResult } from '@doanhoi/shared';
import { fullName } from '@doanhoi/shared';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../lib/context';
import { audit } from '../audit/writer';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { paymentAssignments, paymentCampaigns, payosConfigs } from '../db/tables/payments';
import { subtreeRange } from '../access/scope';
import { users } from '../db/tables/users';
import { deliver, initialEmailStatus, reminderEmail } from './mailer';
import { emailOutbox, paymentReminders } from '../db/tables/reminders';
import { allRows, firstRow, lockRows, withTransaction } from '../db/engine';
import { onPg } from '../db/dialect';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** What is still owed on a fee, never below 0 (a CASE: SQLite's two-argument max is PostgreSQL's greatest). */
export const stillOwed = sql<number>`case when ${paymentAssignments.amount} > coalesce(${paymentAssignments.paidAmount}, 0) then ${paymentAssignments.amount} - coalesce(${paymentAssignments.paidAmount}, 0) else 0 end`;

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

  const result = await withTransaction(db, async (tx) => {
    const campaign = (await firstRow(
      tx
        .select({
          name: paymentCampaigns.name,
          organizationName: organizations.name,
          path: organizations.path,
          payosActive: payosConfigs.isActive,
          endDate: paymentCampaigns.endDate,
        })
        .from(paymentCampaigns)
        .leftJoin(organizations, eq(organizations.id, paymentCampaigns.organizationId))
        .leftJoin(payosConfigs, eq(payosConfigs.campaignId, paymentCampaigns.id))
        .where(eq(paymentCampaigns.id, o.campaignId)),
    ))!;
    const [from, to] = subtreeRange(campaign.path ?? '/0/');
    // The rules below are read-then-insert: on PostgreSQL two sends at once (two processes, a click and
    // the schedule) would both find no recent reminder. Locking the members, then their fees, makes the
    // second wait and then see the first's reminders (the INSERT's own snapshot is taken after the lock).
    // Members first, as deleting a user does (it cascades to the fees); their row is locked without
    // KEY, so rows pointing at them (audit, reminders) are still written meanwhile.
    const targets = await allRows(
      tx
        .select({ id: a.id, userId: a.userId })
        .from(a)
        .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, a.campaignId))
        .where(and(targeted, inArray(a.status, [...UNPAID]))),
    );
    await lockRows(
      tx,
      users,
      targets.map((x) => x.userId),
      'no key update',
    );
    await lockRows(
      tx,
      a,
      targets.map((x) => x.id),
    );
    const recent = sql`exists (select 1 from ${paymentReminders} r where r.campaign_id = ${a.campaignId} and r.user_id = ${a.userId} and r.created_at > ${cutoff.getTime()})`;
    const inside = sql`exists (select 1 from ${organizationMembers} m join ${organizations} o on o.id = m.organization_id where m.user_id = ${a.userId} and m.is_active and o.path >= ${from} and o.path < ${to})`;
    const underLimit = sql`(select count(*) from ${paymentReminders} r where r.user_id = ${a.userId} and r.created_at > ${now.getTime() - DAY_MS}) < ${env.REMINDER_MAX_PER_MEMBER_PER_DAY}`;
    const candidates = await allRows(
      tx
        .select({ id: a.id, recent: sql<number>`${recent}`, inside: sql<number>`${inside}`, underLimit: sql<number>`${underLimit}` })
        .from(a)
        .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, a.campaignId))
        .where(and(targeted, inArray(a.status, [...UNPAID]))),
    );
    const skippedPaid = o.assignmentIds ? o.assignmentIds.length - candidates.length : 0;
    const inserted = await allRows(
      tx
        .insert(paymentReminders)
        .select(
          tx
            .select({
              // insert…select takes every column in table order: a null id lets SQLite number the row,
              // PostgreSQL's identity column wants its next value.
              id: (onPg() ? sql`nextval(pg_get_serial_sequence('payment_reminders', 'id'))` : sql`null`).as('id'),
              campaignId: a.campaignId,
              assignmentId: a.id,
              userId: a.userId,
              sentBy: sql`${o.sentBy}`.as('sent_by'),
              kind: sql`${o.kind}`.as('kind'),
              amount: stillOwed.as('amount'),
              dueDate: sql`coalesce(${a.dueDate}, ${paymentCampaigns.endDate})`.as('due_date'),
              createdAt: sql`${now.getTime()}`.as('created_at'),
            })
            .from(a)
            .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, a.campaignId))
            .where(and(targeted, inArray(a.status, [...UNPAID]), sql`not ${recent}`, inside, underLimit)),
        )
        .returning(),
    );
    const outboxIds: number[] = [];
    if (inserted.length > 0) {
      const userIds = inserted.map((r) => r.userId);
      const people = new Map(
        (
          await allRows(
            tx
              .select({ id: users.id, email: users.email, familyName: users.familyName, givenName: users.givenName })
              .from(users)
              .where(inArray(users.id, userIds)),
          )
        ).map((u) => [u.id, u]),
      );
      // An overdue fee cannot be paid online (as orders.service.ts refuses it): OVERDUE, or past the campaign's end.
      const ended = now.getTime() > campaign.endDate.getTime();
      const overdueIds = new Set(
        ended
          ? inserted.map((r) => r.assignmentId)
          : (
              await allRows(
                tx
                  .select({ id: a.id })
                  .from(a)
                  .where(
                    and(
                      inArray(
                        a.id,
                        inserted.map((r) => r.assignmentId),
                      ),
                      eq(a.status, 'OVERDUE'),
                    ),
                  ),
              )
            ).map((x) => x.id),
      );
      // Without an active payOS configuration the fee is paid in cash: name the unit whose treasurer takes it.
      const units = !campaign.payosActive || overdueIds.size > 0 ? await ownUnits(tx, userIds, from, to) : null;
      for (const r of inserted) {
        const u = people.get(r.userId);
        if (!u?.email) continue;
        const unit = units ? { unitName: units.get(r.userId) ?? campaign.organizationName ?? '' } : null;
        const cash = campaign.payosActive ? null : unit;
        const overdue = overdueIds.has(r.assignmentId) ? unit : null;
        const mail = reminderEmail(env, {
          name: fullName(u),
          campaignName: campaign.name,
          organizationName: campaign.organizationName,
          amount: r.amount,
          dueDate: r.dueDate,
          cash,
          overdue,
        });
        const row = await firstRow(
          tx
            .insert(emailOutbox)
            .values({
              campaignId: o.campaignId,
              reminderId: r.id,
              toAddress: u.email,
              subject: mail.subject,
              text: mail.text,
              status,
              createdAt: now,
            })
            .returning({ id: emailOutbox.id }),
        );
        outboxIds.push(row.id);
      }
    }
    const done = new Set(inserted.map((r) => r.assignmentId));
    const left = candidates.filter((c) => !done.has(c.id));
    const skippedOutside = left.filter((c) => !c.inside).length;
    const skippedLimit = left.filter((c) => c.inside && !c.recent && !c.underLimit).length;
    const skippedRecent = left.length - skippedOutside - skippedLimit;
    if (inserted.length > 0 || o.sentBy != null) {
      await audit(tx, {
        actorId: o.sentBy,
        ip: o.ip ?? null,
        action: 'reminder.send',
        entity: 'payment_campaign',
        entityId: o.campaignId,
        after: {
          kind: o.kind,
          sent: inserted.length,
          skippedRecent,
          skippedPaid,
          skippedLimit,
          skippedOutside,
          assignmentIds: inserted.map((r) => r.assignmentId).slice(0, 500),
        },
      });
    }
    return { sent: inserted.length, skippedRecent, skippedPaid, skippedLimit, skippedOutside, outboxIds };
  });

  // SMTP after the commit: the reminders stand whatever the mail server says.
  const mail = await deliver(db, env, result.outboxIds);
  return {
    sent: result.sent,
    skippedRecent: result.skippedRecent,
    skippedPaid: result.skippedPaid,
    skippedLimit: result.skippedLimit,
    skippedOutside: result.skippedOutside,
    emailed: mail.sent,
    outboxed: status === 'OUTBOX' ? result.outboxIds.length : 0,
    failed: mail.failed,
  };
}

/** Each member's own unit inside the campaign's subtree: the deepest one they are active in. */
async function ownUnits(tx: Pick<Deps['db'], 'select'>, userIds: number[], from: string, to: string): Promise<Map<number, string>> {
  const rows = await allRows(
    tx
      .select({ userId: organizationMembers.userId, name: organizations.name, path: organizations.path })
      .from(organizationMembers)
      .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
      .where(
        and(
          inArray(organizationMembers.userId, userIds),
          eq(organizationMembers.isActive, true),
          sql`${organizations.path} >= ${from}`,
          sql`${organizations.path} < ${to}`,
        ),
      ),
  );
  const best = new Map<number, { name: string; path: string }>();
  for (const r of rows) {
    const b = best.get(r.userId);
    if (!b || r.path.length > b.path.length || (r.path.length === b.path.length && r.name.localeCompare(b.name, 'vi') < 0))
      best.set(r.userId, r);
  }
  return new Map([...best].map(([id, r]) => [id, r.name]));
}
