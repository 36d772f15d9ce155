/**
 * Issue 25 item 7 with SMTP configured: the code goes out through the reminders' mailer to the
 * account's own address, and once sent the outbox row no longer shows it.
 */
import { eq } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { emailOutbox } from '../reminders/schema';
import { makeTestApp, type TestApp } from '../test/harness';
import { insertUser, login } from './test-helpers';

const inbox: { to: string[]; raw: string }[] = [];
let smtp: SMTPServer;
let t: TestApp;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, cb) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (d: string) => (raw += d));
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  t = await makeTestApp({ SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}` });
});
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

it('e-mails the code to the account and masks it in the outbox once sent', async () => {
  const u = insertUser(t, '40250001', { mustChangePassword: true });
  const token = (await login(t, u.email, '40250001')).body.accessToken as string;
  expect((await t.request('POST', '/api/auth/change-password/code', { token, body: {} })).status).toBe(200);
  await expect.poll(() => inbox.length, { timeout: 5000 }).toBe(1);
  expect(inbox[0]!.to).toEqual([u.email]);
  const code = inbox[0]!.raw.match(/\b\d{6}\b/)?.[0];
  expect(code).toBeTruthy();
  await expect.poll(() => t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, u.email)).get()?.status, { timeout: 5000 }).toBe('SENT');
  await expect.poll(() => t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, u.email)).get()!.text.includes(code!)).toBe(false);
  const changed = await t.request('POST', '/api/auth/change-password', { token, body: { currentPassword: '40250001', newPassword: 'owner-pw-123', code } });
  expect(changed.status).toBe(200);
});
