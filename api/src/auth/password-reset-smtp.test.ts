/**
 * Issue 30 item 7 with SMTP configured: the reset link goes out through the reminders' mailer to
 * the account's own address, and once sent the outbox row no longer shows it.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { emailOutbox } from '../db/tables/reminders';
import { makeTestApp, type TestApp } from '../test/harness';
import { startSmtpInbox, type Received } from '../test/smtp-inbox';
import { insertUser, login } from './test-helpers';
import { firstRow } from '../db/engine';

let inbox: Received[] = [];
let closeSmtp: () => Promise<void>;
let t: TestApp;

beforeAll(async () => {
  const smtp = await startSmtpInbox();
  ({ inbox } = smtp);
  closeSmtp = smtp.close;
  t = await makeTestApp({ SMTP_URL: smtp.url });
});
afterAll(() => closeSmtp());

it('e-mails the reset link to the account, hides it in the outbox once sent, and the link resets the password', async () => {
  const u = await insertUser(t, '30070101', { passwordHash: 'x' });
  expect((await t.request('POST', '/api/auth/forgot-password', { body: { email: u.email } })).status).toBe(202);
  await expect.poll(() => inbox.length, { timeout: 5000 }).toBe(1);
  expect(inbox[0]!.to).toEqual([u.email]);
  // Quoted-printable may fold long lines: undo the soft breaks before reading the link.
  const body = inbox[0]!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const token = body.match(/reset-password\?token=([A-Za-z0-9_-]+)/)?.[1];
  expect(token).toBeTruthy();
  await expect
    .poll(async () => (await firstRow(t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, u.email))))?.status, {
      timeout: 5000,
    })
    .toBe('SENT');
  await expect
    .poll(async () => (await firstRow(t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, u.email))))!.text.includes(token!))
    .toBe(false);
  expect((await t.request('POST', '/api/auth/reset-password', { body: { token, password: 'mailed-pw-101' } })).status).toBe(200);
  expect((await login(t, u.email, 'mailed-pw-101')).status).toBe(200);
});
