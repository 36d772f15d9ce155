/** PostgreSQL's reminders tables: db/tables/reminders.ts mapped by the rules in docs/decisions.md (issue 29). */
import { index, integer, pgTable, text, bigint, boolean } from 'drizzle-orm/pg-core';
import { epochMs, timestamps } from '../columns';
import { paymentAssignments, paymentCampaigns } from './payments';
import { users } from './users';

export const paymentReminders = pgTable(
  'payment_reminders',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    campaignId: integer()
      .notNull()
      .references(() => paymentCampaigns.id, { onDelete: 'cascade' }),
    assignmentId: integer()
      .notNull()
      .references(() => paymentAssignments.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sentBy: integer().references(() => users.id, { onDelete: 'set null' }),
    kind: text({ enum: ['MANUAL', 'BEFORE_DUE', 'OVERDUE'] }).notNull(),
    amount: bigint({ mode: 'number' }).notNull(),
    dueDate: epochMs(),
    createdAt: epochMs().notNull(),
  },
  (t) => [
    index('payment_reminders_campaign_user_idx').on(t.campaignId, t.userId, t.createdAt),
    index('payment_reminders_campaign_idx').on(t.campaignId, t.id),
    index('payment_reminders_user_idx').on(t.userId, t.createdAt),
    index('payment_reminders_assignment_kind_idx').on(t.assignmentId, t.kind),
  ],
);

export const reminderSchedules = pgTable('reminder_schedules', {
  campaignId: integer()
    .primaryKey()
    .references(() => paymentCampaigns.id, { onDelete: 'cascade' }),
  daysBefore: integer(),
  onOverdue: boolean().notNull().default(false),
  updatedBy: integer().references(() => users.id, { onDelete: 'set null' }),
  ...timestamps,
});

export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    campaignId: integer().references(() => paymentCampaigns.id, { onDelete: 'cascade' }),
    reminderId: integer().references(() => paymentReminders.id, { onDelete: 'set null' }),
    toAddress: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    status: text({ enum: ['OUTBOX', 'QUEUED', 'SENT', 'FAILED'] }).notNull(),
    error: text(),
    sentAt: epochMs(),
    createdAt: epochMs().notNull(),
  },
  (t) => [
    index('email_outbox_campaign_idx').on(t.campaignId, t.id),
    index('email_outbox_status_idx').on(t.status, t.id),
    index('email_outbox_reminder_idx').on(t.reminderId),
  ],
);
