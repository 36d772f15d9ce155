/** Helpers shared by the auth tests (users in states the harness does not create, audit rows). */
import { and, eq } from 'drizzle-orm';
import { auditLogs } from '../audit/schema';
import type { TestApp } from '../test/harness';
import { userSearchText } from '../users/search';
import { users } from '../users/schema';

/** A user straight in the database: e.g. an imported account (no hash, must change password). */
export function insertUser(
  t: TestApp,
  code: string,
  opts: { email?: string; passwordHash?: string | null; mustChangePassword?: boolean; isActive?: boolean } = {},
) {
  const base = { code, familyName: 'Trần Thị', givenName: 'Hồng', email: opts.email ?? `${code.toLowerCase()}@sv.edu.vn`, phone: null };
  const row = t.db
    .insert(users)
    .values({
      ...base,
      passwordHash: opts.passwordHash ?? null,
      mustChangePassword: opts.mustChangePassword ?? false,
      isActive: opts.isActive ?? true,
      searchText: userSearchText(base),
    })
    .returning()
    .get();
  return row;
}

export function setUserActive(t: TestApp, userId: number, isActive: boolean) {
  t.db.update(users).set({ isActive }).where(eq(users.id, userId)).run();
}

export function userRow(t: TestApp, userId: number) {
  return t.db.select().from(users).where(eq(users.id, userId)).get()!;
}

export function auditRows(t: TestApp, action: string, actorId?: number) {
  return t.db
    .select()
    .from(auditLogs)
    .where(actorId == null ? eq(auditLogs.action, action) : and(eq(auditLogs.action, action), eq(auditLogs.actorId, actorId)))
    .all();
}

export const login = (t: TestApp, email: string, password: string, headers: Record<string, string> = {}) =>
  t.request('POST', '/api/auth/login', { body: { email, password }, headers });
