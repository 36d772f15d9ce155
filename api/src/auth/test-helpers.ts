/** Helpers shared by the auth tests (users in states the harness does not create, audit rows). */
import { and, desc, eq } from 'drizzle-orm';
import { auditLogs } from '../db/tables/audit';
import { emailOutbox } from '../db/tables/reminders';
import type { TestApp } from '../test/harness';
import { userSearchText } from '../users/search';
import { users } from '../db/tables/users';
import { allRows, firstRow, runQuery } from '../db/engine';

/** A user straight in the database: e.g. an imported account (no hash, must change password). */
export async function insertUser(
  t: TestApp,
  code: string,
  opts: { email?: string; passwordHash?: string | null; mustChangePassword?: boolean; isActive?: boolean } = {},
) {
  const base = { code, familyName: 'Trần Thị', givenName: 'Hồng', email: opts.email ?? `${code.toLowerCase()}@sv.edu.vn`, phone: null };
  const row = await firstRow(
    t.db
      .insert(users)
      .values({
        ...base,
        passwordHash: opts.passwordHash ?? null,
        mustChangePassword: opts.mustChangePassword ?? false,
        isActive: opts.isActive ?? true,
        searchText: userSearchText(base),
      })
      .returning(),
  );
  return row;
}

export async function setUserActive(t: TestApp, userId: number, isActive: boolean) {
  await runQuery(t.db.update(users).set({ isActive }).where(eq(users.id, userId)));
}

export async function userRow(t: TestApp, userId: number) {
  return (await firstRow(t.db.select().from(users).where(eq(users.id, userId))))!;
}

export async function auditRows(t: TestApp, action: string, actorId?: number) {
  return await allRows(
    t.db
      .select()
      .from(auditLogs)
      .where(actorId == null ? eq(auditLogs.action, action) : and(eq(auditLogs.action, action), eq(auditLogs.actorId, actorId))),
  );
}

export const login = (t: TestApp, email: string, password: string, headers: Record<string, string> = {}) =>
  t.request('POST', '/api/auth/login', { body: { email, password }, headers });

/** The six-digit code of the newest e-mail to this address (the outbox keeps it without SMTP). */
export async function outboxCode(t: TestApp, email: string): Promise<string> {
  const row = await firstRow(
    t.db.select({ text: emailOutbox.text }).from(emailOutbox).where(eq(emailOutbox.toAddress, email)).orderBy(desc(emailOutbox.id)),
  );
  const code = row?.text.match(/\b\d{6}\b/)?.[0];
  if (!code) throw new Error(`no code e-mailed to ${email}`);
  return code;
}

/** A default-password session asks for its code by e-mail and reads it from the outbox (issue 25 item 7). */
export async function mailedCode(t: TestApp, token: string, email: string): Promise<string> {
  const res = await t.request('POST', '/api/auth/change-password/code', { token, body: {} });
  if (res.status !== 200) throw new Error(`code request answered ${res.status}`);
  return outboxCode(t, email);
}
