/**
 * Issue 26 item 9: the outbox sends again what it kept while SMTP was unset and what the server
 * refused — only for those who may send reminders in that campaign, only while the fee is unpaid,
 * audited; and an overdue fee's reminder names the treasurer instead of a page where it cannot be paid.
 */
import { PERMISSIONS } from '@doanhoi/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import { makeTestApp, type TestApp } from '../test/harness';
import { startSmtpInbox, type Received, type SmtpInbox } from '../test/smtp-inbox';
import { campaigns, join, liveServer } from '../payments/fixture';
import { paymentAssignments } from '../db/tables/payments';
import { emailOutbox } from '../db/tables/reminders';
import { allRows, firstRow, runQuery } from '../db/engine';

let smtp: SmtpInbox;
let inbox: Received[];
let t: TestApp;
let api: ReturnType<typeof campaigns>;
let server: Awaited<ReturnType<typeof liveServer>>;
let smtpUrl: string;
let chiDoan: number;
const tokens: Record<string, string> = {};
let n = 0;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  inbox = smtp.inbox;
  smtpUrl = smtp.url;
  t = await makeTestApp({ SMTP_URL: smtpUrl, REMINDER_MAX_PER_MEMBER_PER_DAY: '1000' });
  server = await liveServer(t);
  api = campaigns(t);
  const root = await t.createOrg('doan_truong', 'RSD');
  const faculty = await t.createOrg('doan_co_so', 'RSD-F1', root);
  chiDoan = await t.createOrg('chi_doan', 'RSD-F1-C1', faculty);
  const other = await t.createOrg('doan_co_so', 'RSD-F2', root);
  const all = PERMISSIONS.map((p) => p.code).filter((c) => c.startsWith('payment-campaigns.'));
  const treasurer = await t.createRole('rsd_treasurer', all);
  const reader = await t.createRole('rsd_reader', ['payment-campaigns.access', 'payment-campaigns.read', 'payment-campaigns.view_reports']);
  tokens.inside = (await t.createUser('RSDI', [{ roleId: treasurer, organizationId: faculty }])).token;
  tokens.outside = (await t.createUser('RSDO', [{ roleId: treasurer, organizationId: other }])).token;
  tokens.reader = (await t.createUser('RSDR', [{ roleId: reader, organizationId: faculty }])).token;
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

/** A campaign with one member reminded while no SMTP server was set: its e-mail is kept (OUTBOX). */
async function keptReminder() {
  const m = await t.createUser(`RSDM${++n}`);
  await join(t, m.id, chiDoan);
  const { campaign, assignments } = await api.active(chiDoan, [m.id], { amount: 90_000 });
  t.env.SMTP_URL = undefined;
  try {
    expect(
      (await t.request('POST', `/api/payment-campaigns/${campaign.id}/reminders`, { token: t.adminToken, body: {} })).body.data,
    ).toMatchObject({ sent: 1, outboxed: 1 });
  } finally {
    t.env.SMTP_URL = smtpUrl;
  }
  const row = (await firstRow(t.db.select().from(emailOutbox).where(eq(emailOutbox.campaignId, campaign.id))))!;
  expect(row.status).toBe('OUTBOX');
  return { m, campaign, assignmentId: assignments[0].id as number, emailId: row.id };
}
const resend = (id: number, token: string) => t.request('POST', `/api/reminders/outbox/${id}/resend`, { token, body: {} });
const status = async (id: number) => (await firstRow(t.db.select().from(emailOutbox).where(eq(emailOutbox.id, id))))!.status;
const outbox = async (token: string) => (await t.request('GET', '/api/reminders/outbox?limit=100', { token })).body.data;

describe('sending kept and failed reminder e-mails again', () => {
  it('the outbox offers it to a treasurer of the campaign, who sends it once; it is audited', async () => {
    const { m, campaign, emailId } = await keptReminder();
    const listed = await outbox(tokens.inside);
    expect(listed.smtpConfigured).toBe(true);
    expect(listed.emails.find((e: { id: number }) => e.id === emailId)).toMatchObject({
      status: 'OUTBOX',
      canResend: true,
      resendBlockedReason: null,
    });
    // Someone who reads the campaign's reports but may not send reminders, and a treasurer of another faculty.
    expect((await resend(emailId, tokens.reader)).status).toBe(404);
    expect((await resend(emailId, tokens.outside)).status).toBe(404);
    inbox.length = 0;
    const res = await resend(emailId, tokens.inside);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ resent: 1, sent: 1, failed: 0 });
    expect(inbox.map((x) => x.to[0])).toEqual([m.email]);
    expect(await status(emailId)).toBe('SENT');
    // Sent: not again.
    expect((await resend(emailId, tokens.inside)).status).toBe(409);
    const logged = await allRows(
      t.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.action, 'reminder.resend'), eq(auditLogs.entityId, String(campaign.id)))),
    );
    expect(logged).toHaveLength(1);
  });

  it('a FAILED e-mail is retried; without SMTP or once the fee is paid it is refused with the reason', async () => {
    const { emailId, assignmentId } = await keptReminder();
    smtp.refuse = true;
    try {
      expect((await resend(emailId, tokens.inside)).body.data).toEqual({ resent: 1, sent: 0, failed: 1 });
    } finally {
      smtp.refuse = false;
    }
    expect(await status(emailId)).toBe('FAILED');
    t.env.SMTP_URL = undefined;
    try {
      const blocked = await resend(emailId, tokens.inside);
      expect(blocked.status).toBe(409);
      expect(blocked.body.message).toContain('SMTP');
      expect((await outbox(tokens.inside)).emails.find((e: { id: number }) => e.id === emailId)).toMatchObject({
        canResend: false,
        resendBlockedReason: 'NO_SMTP',
      });
    } finally {
      t.env.SMTP_URL = smtpUrl;
    }
    expect((await resend(emailId, tokens.inside)).body.data).toMatchObject({ sent: 1 });
    expect(await status(emailId)).toBe('SENT');

    const paid = await keptReminder();
    await runQuery(t.db.update(paymentAssignments).set({ status: 'PAID' }).where(eq(paymentAssignments.id, paid.assignmentId)));
    const refused = await resend(paid.emailId, tokens.inside);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('đã được thanh toán');
    expect(await status(paid.emailId)).toBe('OUTBOX');
    void assignmentId;
  });

  it('a bulk resend sends each kept e-mail once, even when clicked twice at once', async () => {
    const a = await keptReminder();
    const b = await keptReminder();
    inbox.length = 0;
    const both = await Promise.all(
      [0, 1].map(() => t.request('POST', '/api/reminders/outbox/resend', { token: tokens.inside, body: { ids: [a.emailId, b.emailId] } })),
    );
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(inbox.map((x) => x.to[0]).sort()).toEqual([a.m.email, b.m.email].sort());
  });
});

describe('an overdue fee is reminded without a page where it cannot be paid', () => {
  it('names the unit treasurer and gives no payment link', async () => {
    const m = await t.createUser(`RSDM${++n}`);
    await join(t, m.id, chiDoan);
    const { campaign, assignments } = await api.active(chiDoan, [m.id], { amount: 90_000 });
    await runQuery(t.db.update(paymentAssignments).set({ status: 'OVERDUE' }).where(eq(paymentAssignments.id, assignments[0].id)));
    t.env.SMTP_URL = undefined;
    try {
      await t.request('POST', `/api/payment-campaigns/${campaign.id}/reminders`, { token: t.adminToken, body: {} });
    } finally {
      t.env.SMTP_URL = smtpUrl;
    }
    const row = (await firstRow(t.db.select().from(emailOutbox).where(eq(emailOutbox.campaignId, campaign.id))))!;
    expect(row.text).toContain('quá hạn nên không còn thanh toán trực tuyến được');
    expect(row.text).toContain('thủ quỹ của');
    expect(row.text).toContain('can no longer be paid online');
    expect(row.text).not.toContain('/payment/my-campaigns');
  });
});
