/**
 * Issue 25 item 7 with SMTP configured: the code goes out through the reminders' mailer to the
 * account's own address, and once sent the outbox row no longer shows it.
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

it('e-mails the code to the account and masks it in the outbox once sent', async () => {
  const u = await insertUser(t, '40250001', { mustChangePassword: true });
  const token = (await login(t, u.email, '40250001')).body.accessToken as string;
  expect((await t.request('POST', '/api/auth/change-password/code', { token, body: {} })).status).toBe(200);
  await expect.poll(() => inbox.length, { timeout: 5000 }).toBe(1);
  expect(inbox[0]!.to).toEqual([u.email]);
  const code = inbox[0]!.raw.match(/\b\d{6}\b/)?.[0];
  expect(code).toBeTruthy();
  await expect
    .poll(async () => (await firstRow(t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, u.email))))?.status, {
      timeout: 5000,
    })
    .toBe('SENT');
  await expect
    .poll(async () => (await firstRow(t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, u.email))))!.text.includes(code!))
    .toBe(false);
  const changed = await t.request('POST', '/api/auth/change-password', {
    token,
    body: { currentPassword: '40250001', newPassword: 'owner-pw-123', code },
  });
  expect(changed.status).toBe(200);
});
