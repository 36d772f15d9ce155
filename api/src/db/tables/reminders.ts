import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps } from '../columns';
import { paymentAssignments, paymentCampaigns } from './payments';
import { users } from './users';

/** One row per reminder a member received: the history tab, the portal notice and the interval rule read it. */
export const paymentReminders = sqliteTable(
  'payment_reminders',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    campaignId: integer()
      .notNull()
      .references(() => paymentCampaigns.id, { onDelete: 'cascade' }),
    assignmentId: integer()
      .notNull()
      .references(() => paymentAssignments.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Who clicked; null when the campaign's schedule sent it. */
    sentBy: integer().references(() => users.id, { onDelete: 'set null' }),
    kind: text({ enum: ['MANUAL', 'BEFORE_DUE', 'OVERDUE'] }).notNull(),
    /** What was still owed, and by when, as the member was told. */
    amount: integer().notNull(),
    dueDate: integer({ mode: 'timestamp_ms' }),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    // The interval rule's lookup: the last reminder of this member in this campaign.
    index('payment_reminders_campaign_user_idx').on(t.campaignId, t.userId, t.createdAt),
    index('payment_reminders_campaign_idx').on(t.campaignId, t.id),
    index('payment_reminders_user_idx').on(t.userId, t.createdAt),
    index('payment_reminders_assignment_kind_idx').on(t.assignmentId, t.kind),
  ],
);

/** A campaign's automatic reminders; no row means none. */
export const reminderSchedules = sqliteTable('reminder_schedules', {
  campaignId: integer()
    .primaryKey()
    .references(() => paymentCampaigns.id, { onDelete: 'cascade' }),
  /** Remind this many days before the due date (null: not before). */
  daysBefore: integer(),
  /** Remind once when the fee becomes overdue. */
  onOverdue: integer({ mode: 'boolean' }).notNull().default(false),
  updatedBy: integer().references(() => users.id, { onDelete: 'set null' }),
  ...timestamps,
});

/** Every reminder e-mail: sent through SMTP, or kept here (OUTBOX) when no SMTP server is configured. */
export const emailOutbox = sqliteTable(
  'email_outbox',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    campaignId: integer().references(() => paymentCampaigns.id, { onDelete: 'cascade' }),
    reminderId: integer().references(() => paymentReminders.id, { onDelete: 'set null' }),
    toAddress: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    status: text({ enum: ['OUTBOX', 'QUEUED', 'SENT', 'FAILED'] }).notNull(),
    error: text(),
    sentAt: integer({ mode: 'timestamp_ms' }),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('email_outbox_campaign_idx').on(t.campaignId, t.id),
    index('email_outbox_status_idx').on(t.status, t.id),
    index('email_outbox_reminder_idx').on(t.reminderId),
  ],
);
