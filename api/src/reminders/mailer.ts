/**
 * Reminder e-mails. With SMTP_URL they go out through nodemailer; without it they stay in the
 * email_outbox table (status OUTBOX), which the admin shows, so the embedded default loses nothing.
 */
import { containsUrl, formatDate, formatVnd } from '@doanhoi/shared';
import { eq, inArray } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Db } from '../db/client';
import type { Env } from '../env';
import { logger } from '../lib/logger';
import { publicOrigin } from '../payos/origin';
import { emailOutbox } from '../db/tables/reminders';
import { allRows, runQuery } from '../db/engine';

export interface ReminderMail {
  name: string;
  campaignName: string;
  organizationName: string | null;
  amount: number;
  dueDate: Date | null;
  /** Paid in cash (the campaign has no active payOS configuration): the unit whose treasurer takes it. */
  cash?: { unitName: string } | null;
  /**
   * The fee is overdue: online payment is closed for it (orders.service.ts), so the e-mail names the
   * treasurer instead of a page where the member could not pay (issue 26 item 9).
   */
  overdue?: { unitName: string } | null;
}

/**
 * A name as it may appear in an e-mail from the union's sender: any word holding a web
 * address is hidden (issue 25 item 15). New campaign names cannot hold one (shared containsUrl);
 * older ones, and unit and member names, still send without the address.
 */
export function withoutUrls(text: string): string {
  return text
    .split(/(\s+)/)
    .map((word) => (containsUrl(word) ? '[địa chỉ web đã ẩn]' : word))
    .join('');
}

/**
 * Vietnamese first, English below: the server does not know a member's language, and a reminder
 * must be read. Plain text only (no HTML to escape or to be flagged as spam).
 */
export function reminderEmail(env: Pick<Env, 'PUBLIC_URL' | 'PORT'>, m: ReminderMail): { subject: string; text: string } {
  const amount = formatVnd(m.amount);
  const due = m.dueDate ? formatDate(m.dueDate) : '—';
  const link = `${publicOrigin(env)}/payment/my-campaigns`;
  // Unit and member names are typed by officers too (a unit renamed "… tại http://evil.example"):
  // every name the e-mail carries loses its web addresses, not only the campaign's.
  const org = m.organizationName ? ` (${withoutUrls(m.organizationName)})` : '';
  const name = withoutUrls(m.campaignName);
  const member = withoutUrls(m.name);
  const overdueUnit = m.overdue ? withoutUrls(m.overdue.unitName) : '';
  const cashUnit = m.cash ? withoutUrls(m.cash.unitName) : '';
  // A cash campaign offers no payment link: the member pays their unit's treasurer.
  const how = m.overdue
    ? `Khoản phí đã quá hạn nên không còn thanh toán trực tuyến được: vui lòng liên hệ và nộp cho thủ quỹ của ${overdueUnit}.`
    : m.cash
      ? `Đợt thu này nộp bằng tiền mặt: vui lòng nộp cho thủ quỹ của ${cashUnit}.`
      : `Thanh toán tại: ${link}`;
  const howEn = m.overdue
    ? `The fee is overdue and can no longer be paid online: please pay the treasurer of ${overdueUnit}.`
    : m.cash
      ? `Pay in cash to the treasurer of ${cashUnit}.`
      : `Pay at ${link}`;
  return {
    subject: `Nhắc nhở thanh toán: ${name} – ${amount}`,
    text: [
      `Chào ${member},`,
      '',
      `Bạn còn khoản phí chưa thanh toán trong đợt thu "${name}"${org}.`,
      `Số tiền: ${amount}`,
      `Hạn nộp: ${due}`,
      how,
      '',
      `Hello ${member}, you still have an unpaid fee in "${name}": ${amount}, due ${due}. ${howEn}`,
    ].join('\n'),
  };
}

/** The status a new e-mail row starts in. */
export const initialEmailStatus = (env: Pick<Env, 'SMTP_URL'>): 'QUEUED' | 'OUTBOX' => (env.SMTP_URL ? 'QUEUED' : 'OUTBOX');

/** Parallel SMTP conversations at most: a campaign of thousands must not open thousands of sockets. */
const CONCURRENCY = 4;

/**
 * Sends the QUEUED rows among `ids` and records each answer (SENT, or FAILED with the error).
 * Runs after the reminders' transaction has committed, so a slow or failing server never undoes them.
 */
export async function deliver(db: Db, env: Pick<Env, 'SMTP_URL' | 'SMTP_FROM'>, ids: number[]): Promise<{ sent: number; failed: number }> {
  if (!env.SMTP_URL || ids.length === 0) return { sent: 0, failed: 0 };
  const rows = (await allRows(db.select().from(emailOutbox).where(inArray(emailOutbox.id, ids)))).filter((r) => r.status === 'QUEUED');
  const transport = nodemailer.createTransport(env.SMTP_URL);
  let sent = 0;
  let failed = 0;
  const queue = [...rows];
  const worker = async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      try {
        await transport.sendMail({ from: env.SMTP_FROM, to: row.toAddress, subject: row.subject, text: row.text });
        await runQuery(db.update(emailOutbox).set({ status: 'SENT', sentAt: new Date(), error: null }).where(eq(emailOutbox.id, row.id)));
        sent++;
      } catch (err) {
        // The address is personal data: only the row id goes to the log.
        logger.warn({ err, outboxId: row.id }, 'reminders: e-mail not sent');
        await runQuery(
          db
            .update(emailOutbox)
            .set({ status: 'FAILED', error: String((err as Error).message ?? err).slice(0, 500) })
            .where(eq(emailOutbox.id, row.id)),
        );
        failed++;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, rows.length) }, worker));
  } finally {
    transport.close();
  }
  return { sent, failed };
}
