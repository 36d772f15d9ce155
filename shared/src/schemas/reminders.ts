/** Unpaid-fee reminders (issue 15.2): sending, the per-campaign schedule, history, the e-mail outbox and the member's notices. */
import { z } from 'zod';
import { id, invalid, limit, page, queryId } from './payments/fields';

/** MANUAL: a treasurer's click; BEFORE_DUE / OVERDUE: the campaign's schedule (reminders/jobs.ts). */
export const REMINDER_KINDS = ['MANUAL', 'BEFORE_DUE', 'OVERDUE'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];
/** OUTBOX: no SMTP configured, kept for an administrator to read; QUEUED: being sent; SENT / FAILED: the SMTP answer. */
export const EMAIL_STATUSES = ['OUTBOX', 'QUEUED', 'SENT', 'FAILED'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** No ids: every unpaid assignment of the campaign; ids: only those (paid ones are skipped). */
export const sendRemindersSchema = z.object({
  assignmentIds: z.array(id()).min(1, 'validation.idsRequired').max(1000, invalid).optional(),
});
export type SendRemindersInput = z.infer<typeof sendRemindersSchema>;

export const sendRemindersResult = z.object({
  sent: z.number().int(),
  /** Reminded within REMINDER_MIN_INTERVAL_HOURS. */
  skippedRecent: z.number().int(),
  /** Selected but already paid (or not in this campaign). */
  skippedPaid: z.number().int(),
  /** Already sent REMINDER_MAX_PER_MEMBER_PER_DAY reminders in the last 24 hours, over every campaign (issue 25 item 15). */
  skippedLimit: z.number().int(),
  /** No longer an active member inside the campaign organization's subtree. */
  skippedOutside: z.number().int(),
  emailed: z.number().int(),
  outboxed: z.number().int(),
  failed: z.number().int(),
});
export type SendRemindersResult = z.infer<typeof sendRemindersResult>;

export const REMINDER_DAYS_BEFORE_MAX = 60;
const daysRange = 'validation.reminderDaysRange';

/** daysBefore null: no reminder before the due date. */
export const reminderScheduleSchema = z.object({
  daysBefore: z.number({ error: daysRange }).int(daysRange).min(1, daysRange).max(REMINDER_DAYS_BEFORE_MAX, daysRange).nullable(),
  onOverdue: z.boolean({ error: invalid }),
});
export type ReminderScheduleInput = z.infer<typeof reminderScheduleSchema>;

export const reminderListQuery = z.object({ page, limit: limit() });
/** The outbox list: one campaign's e-mails (its reminders tab), or all within reach, by status and organization subtree (the outbox screen). */
export const outboxQuery = z.object({
  page,
  limit: limit(),
  campaignId: queryId.optional(),
  status: z.enum(EMAIL_STATUSES, { error: invalid }).optional(),
  organizationId: queryId.optional(),
});
export type OutboxQuery = z.infer<typeof outboxQuery>;

const person = z.object({ id: z.number(), familyName: z.string(), givenName: z.string(), code: z.string() });

export const reminderItem = z.object({
  id: z.number(),
  assignmentId: z.number(),
  kind: z.enum(REMINDER_KINDS),
  amount: z.number(),
  dueDate: z.string().nullable(),
  createdAt: z.string(),
  user: person,
  /** null for the schedule. */
  sentBy: person.nullable(),
  emailStatus: z.enum(EMAIL_STATUSES).nullable(),
});
export type ReminderItem = z.infer<typeof reminderItem>;

export const outboxItem = z.object({
  id: z.number(),
  campaignId: z.number().nullable(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  status: z.enum(EMAIL_STATUSES),
  error: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  /** Which campaign and organization wrote it (the outbox screen lists several). */
  campaign: z.object({ id: z.number(), name: z.string() }).nullable(),
  organization: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** A kept (OUTBOX) or FAILED reminder the caller may send again now (issue 26 item 9). */
  canResend: z.boolean(),
  /** Why a kept or failed e-mail cannot be sent again; null when it can or is not the caller's to send. */
  resendBlockedReason: z.enum(['NOT_REMINDER', 'SENT', 'NO_SMTP', 'CLOSED', 'PAID']).nullable(),
});
export type OutboxItem = z.infer<typeof outboxItem>;

/** Send kept or failed reminder e-mails again (issue 26 item 9). */
export const resendOutboxSchema = z.object({
  ids: z.array(id()).min(1, 'validation.idsRequired').max(100, invalid),
});
export type ResendOutboxInput = z.infer<typeof resendOutboxSchema>;
export const resendOutboxResult = z.object({ resent: z.number().int(), sent: z.number().int(), failed: z.number().int() });
export type ResendOutboxResult = z.infer<typeof resendOutboxResult>;

/** A notice on the member's my-payments page: shown while the fee is unpaid. */
export const myReminder = z.object({
  assignmentId: z.number(),
  campaignId: z.number(),
  campaignName: z.string(),
  amount: z.number(),
  dueDate: z.string().nullable(),
  remindedAt: z.string(),
});
export type MyReminder = z.infer<typeof myReminder>;

const pageOf = { page: z.number(), limit: z.number(), total: z.number(), totalPages: z.number() };
/** A campaign's reminder history, newest first. */
export const reminderHistoryResponse = z.object({ reminders: z.array(reminderItem), ...pageOf });
/** The e-mails written for reminders, newest first. */
export const outboxResponse = z.object({ emails: z.array(outboxItem), smtpConfigured: z.boolean(), ...pageOf });
