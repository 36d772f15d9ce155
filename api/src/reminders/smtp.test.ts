/**
 * Reminder e-mails through a real SMTP server started here (smtp-server), read as they arrived;
 * a refusing server leaves FAILED rows, and the campaign's schedule reminds before the due date and when overdue.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { startSmtpInbox, type Received, type SmtpInbox } from '../test/smtp-inbox';
import { campaigns, join, liveServer, vnLocal } from '../payments/fixture';
import { paymentAssignments } from '../db/tables/payments';
import { runReminderSchedules } from './jobs';
import { emailOutbox, paymentReminders } from '../db/tables/reminders';
import { allRows, firstRow, runQuery } from '../db/engine';

let smtp: SmtpInbox;
let inbox: Received[];
let t: TestApp;
let api: ReturnType<typeof campaigns>;
let server: Awaited<ReturnType<typeof liveServer>>;
let chiDoan: number;
const members: { id: number; email: string }[] = [];

beforeAll(async () => {
  smtp = await startSmtpInbox();
  inbox = smtp.inbox;
  const port = new URL(smtp.url).port;
  t = await makeTestApp({ SMTP_URL: `smtp://treasurer:secret@127.0.0.1:${port}`, SMTP_FROM: 'Đoàn trường <doan@test.vn>' });
  server = await liveServer(t);
  api = campaigns(t);
  const root = await t.createOrg('doan_truong', 'SMT');
  chiDoan = await t.createOrg('chi_doan', 'SMT-C1', root);
  for (let i = 1; i <= 3; i++) {
    const m = await t.createUser(`SMTM${i}`);
    await join(t, m.id, chiDoan);
    members.push(m);
  }
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

/** The decoded text part of a raw message (nodemailer writes UTF-8 bodies quoted-printable or base64). */
function body(raw: string): string {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const text = rest.join('\n\n');
  if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(text.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
    const bytes = text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return text;
}

function subject(raw: string): string {
  const line = raw.match(/^Subject: (.*(?:\r?\n[ \t].*)*)/m)![1];
  // RFC 2047 encoded words, as nodemailer writes non-ASCII subjects.
  return line
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/=\?UTF-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, enc: string, data: string) =>
      enc.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : Buffer.from(
            data.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
            'latin1',
          ).toString('utf8'),
    )
    .trim();
}

describe('reminder e-mails over SMTP', () => {
  it('each unpaid member receives one e-mail with the campaign, amount and due date', async () => {
    inbox.length = 0;
    const { campaign, assignments } = await api.active(
      chiDoan,
      members.map((m) => m.id),
      { amount: 150_000 },
    );
    await runQuery(t.db.update(paymentAssignments).set({ status: 'PAID' }).where(eq(paymentAssignments.id, assignments[2].id)));
    const res = await t.request('POST', `/api/payment-campaigns/${campaign.id}/reminders`, { token: t.adminToken, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ sent: 2, emailed: 2, outboxed: 0, failed: 0 });
    expect(inbox.map((m) => m.to[0]).sort()).toEqual([members[0].email, members[1].email].sort());
    const mail = inbox.find((m) => m.to[0] === members[0].email)!;
    expect(mail.from).toBe('doan@test.vn');
    expect(subject(mail.raw).replace(/\u00a0/g, ' ')).toBe(`Nhắc nhở thanh toán: ${campaign.name} – 150.000 ₫`);
    // formatVnd puts a no-break space before ₫.
    const text = body(mail.raw).replace(/\u00a0/g, ' ');
    expect(text).toContain('Chào Nguyễn Văn SMTM1');
    expect(text).toContain('Số tiền: 150.000 ₫');
    expect(text).toMatch(/Hạn nộp: \d{2}\/\d{2}\/\d{4}/);
    expect(text).toContain('/payment/my-campaigns');
    const rows = await allRows(t.db.select().from(emailOutbox).where(eq(emailOutbox.campaignId, campaign.id)));
    expect(rows.map((r) => r.status)).toEqual(['SENT', 'SENT']);
  });

  it('a refusing server leaves the reminder standing and the e-mail FAILED with the reason', async () => {
    const { campaign } = await api.active(chiDoan, [members[0].id]);
    smtp.refuse = true;
    try {
      const res = await t.request('POST', `/api/payment-campaigns/${campaign.id}/reminders`, { token: t.adminToken, body: {} });
      expect(res.body.data).toMatchObject({ sent: 1, emailed: 0, failed: 1 });
    } finally {
      smtp.refuse = false;
    }
    const row = (await firstRow(t.db.select().from(emailOutbox).where(eq(emailOutbox.campaignId, campaign.id))))!;
    expect(row.status).toBe('FAILED');
    expect(row.error).toContain('mailbox unavailable');
  });
});

describe('the reminder schedule', () => {
  it('reminds N days before the due date once, then on the day it becomes overdue', async () => {
    inbox.length = 0;
    const c = await api.create(chiDoan, { endDate: vnLocal(30, '23:59:00') });
    const level = await api.level(c.id, 80_000);
    const soon = await api.assign(c.id, members[0].id, level.id);
    const later = await api.assign(c.id, members[1].id, level.id);
    await api.config(c.id);
    await api.activate(c.id);
    const now = Date.now();
    await runQuery(
      t.db
        .update(paymentAssignments)
        .set({ dueDate: new Date(now + 2 * 86_400_000) })
        .where(eq(paymentAssignments.id, soon.id)),
    );
    await runQuery(
      t.db
        .update(paymentAssignments)
        .set({ dueDate: new Date(now + 20 * 86_400_000) })
        .where(eq(paymentAssignments.id, later.id)),
    );
    expect(
      (
        await t.request('PUT', `/api/payment-campaigns/${c.id}/reminder-schedule`, {
          token: t.adminToken,
          body: { daysBefore: 3, onOverdue: true },
        })
      ).status,
    ).toBe(200);

    expect((await runReminderSchedules({ db: t.db, env: t.env }, new Date(now))).sent).toBe(1);
    expect(inbox.map((m) => m.to[0])).toEqual([members[0].email]);
    // The next pass, a day later and past the interval, does not repeat the "before" reminder.
    expect((await runReminderSchedules({ db: t.db, env: t.env }, new Date(now + 1.5 * 86_400_000))).sent).toBe(0);
    // Past the due date: the overdue reminder.
    expect((await runReminderSchedules({ db: t.db, env: t.env }, new Date(now + 3 * 86_400_000))).sent).toBe(1);
    const kinds = await allRows(
      t.db
        .select({ kind: paymentReminders.kind, sentBy: paymentReminders.sentBy })
        .from(paymentReminders)
        .where(eq(paymentReminders.campaignId, c.id)),
    );
    expect(kinds).toEqual([
      { kind: 'BEFORE_DUE', sentBy: null },
      { kind: 'OVERDUE', sentBy: null },
    ]);
    expect(inbox).toHaveLength(2);
  });
});
