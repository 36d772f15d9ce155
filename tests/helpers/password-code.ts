import { expect } from '@playwright/test';
import { ADMIN } from './accounts';
import { apiLogin } from './session';

/**
 * The one-time code last e-mailed to `email` (issue 25 item 7), read as the admin reads it on the
 * Outbox screen: the e2e server has no SMTP, so the e-mail waits in the outbox.
 */
export async function mailedCode(baseURL: string, email: string): Promise<string> {
  const token = await apiLogin(baseURL, ADMIN);
  const res = await fetch(`${baseURL}/api/reminders/outbox?limit=100`, { headers: { authorization: `Bearer ${token}` } });
  const { data } = (await res.json()) as { data: { emails: { to: string; text: string }[] } };
  const code = data.emails.find((e) => e.to === email)?.text.match(/\b\d{6}\b/)?.[0];
  expect(code, `code e-mailed to ${email}`).toBeTruthy();
  return code!;
}
