/**
 * Issue 25 item 7: the public default password (the e-mail's local part) no longer takes the
 * account. Its first change needs a one-time code the owner has (e-mailed, or issued by an
 * administrator who may manage the account); sign-ins with it are throttled per address.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { organizationMembers } from '../db/tables/organizations';
import { emailOutbox } from '../db/tables/reminders';
import { makeTestApp, type TestApp } from '../test/harness';
import { users } from '../db/tables/users';
import { oneTimeCodes } from '../db/tables/auth';
import { auditRows, insertUser, login, mailedCode, outboxCode, userRow } from './test-helpers';
import { allRows, firstRow, runQuery } from '../db/engine';
import { mapInOrder } from '../lib/in-order';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});

/** An imported account (no hash, must change), signed in with its local part. */
async function defaultAccount(code: string) {
  const u = await insertUser(t, code, { mustChangePassword: true });
  const res = await login(t, u.email, code.toLowerCase());
  expect(res.status).toBe(200);
  return { ...u, token: res.body.accessToken as string, password: code.toLowerCase() };
}

const change = (token: string, body: Record<string, unknown>) => t.request('POST', '/api/auth/change-password', { token, body });
const askCode = (token: string, body: unknown = {}) => t.request('POST', '/api/auth/change-password/code', { token, body });

describe('the first change of a default password needs a one-time code', () => {
  it('without a code: 400 PASSWORD_CODE_REQUIRED, and the password stays', async () => {
    const u = await defaultAccount('20250001');
    const res = await change(u.token, { currentPassword: u.password, newPassword: 'attacker-pw-1' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'PASSWORD_CODE_REQUIRED' });
    expect(res.body.message).toContain('mã xác nhận');
    expect(await userRow(t, u.id)).toMatchObject({ passwordHash: null, mustChangePassword: true });
  });

  it('a code e-mailed through the outbox (hashed at rest) lets the owner change it, once; the outbox then masks it', async () => {
    const u = await defaultAccount('20250002');
    const sent = await askCode(u.token);
    expect(sent.status).toBe(200);
    expect(Date.parse(sent.body.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
    const mail = (await firstRow(t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, u.email))))!;
    expect(mail).toMatchObject({ status: 'OUTBOX', campaignId: null });
    const code = await outboxCode(t, u.email);
    expect(code).toMatch(/^\d{6}$/);
    const stored = await allRows(t.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, u.id)));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.codeHash).not.toContain(code);
    // The admin (system.view_logs) sees it on the Outbox screen.
    const outbox = await t.request('GET', '/api/reminders/outbox', { token: t.adminToken });
    expect(outbox.body.data.emails.some((e: { to: string; text: string }) => e.to === u.email && e.text.includes(code))).toBe(true);

    const ok = await change(u.token, { currentPassword: u.password, newPassword: 'owner-pw-123', code });
    expect(ok.status).toBe(200);
    expect((await userRow(t, u.id)).mustChangePassword).toBe(false);
    expect((await login(t, u.email, 'owner-pw-123')).status).toBe(200);
    expect((await firstRow(t.db.select().from(emailOutbox).where(eq(emailOutbox.id, mail.id))))!.text).not.toContain(code);
    expect(await auditRows(t, 'auth.password_code_sent', u.id)).toHaveLength(1);

    // Reused: even if the account were back on a default password, the spent code does nothing.
    await runQuery(t.db.update(users).set({ passwordHash: null, mustChangePassword: true }).where(eq(users.id, u.id)));
    const again = await login(t, u.email, u.password);
    const reused = await change(again.body.accessToken, { currentPassword: u.password, newPassword: 'attacker-pw-2', code });
    expect(reused.status).toBe(400);
    expect(reused.body.code).toBe('PASSWORD_CODE_INVALID');
  });

  it('a wrong code is refused, and after five misses the live codes are dead', async () => {
    const u = await defaultAccount('20250003');
    const code = await mailedCode(t, u.token, u.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await change(u.token, { currentPassword: u.password, newPassword: 'guess-pw-1', code: wrong });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('không đúng');
    }
    expect((await change(u.token, { currentPassword: u.password, newPassword: 'owner-pw-1', code })).status).toBe(400);
    expect((await userRow(t, u.id)).mustChangePassword).toBe(true);
  });

  it('an expired code is refused (15 minutes)', async () => {
    const u = await defaultAccount('20250004');
    const code = await mailedCode(t, u.token, u.email);
    await runQuery(
      t.db
        .update(oneTimeCodes)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(oneTimeCodes.userId, u.id)),
    );
    const res = await change(u.token, { currentPassword: u.password, newPassword: 'owner-pw-1', code });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('PASSWORD_CODE_INVALID');
    // Said under the code field of the dialogs (issue 26 item 7).
    expect(Object.keys(res.body.errors)).toEqual(['code']);
  });

  it('bad input: a code that is not six digits, or a code request with fields, is a validation 400', async () => {
    const u = await defaultAccount('20250005');
    const res = await change(u.token, { currentPassword: u.password, newPassword: 'owner-pw-1', code: '12ab' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('6 chữ số');
    expect((await askCode(u.token, { email: 'attacker@evil.vn' })).status).toBe(400);
  });

  it('codes are e-mailed at most once a minute (429 with retryAfter)', async () => {
    const u = await defaultAccount('20250006');
    expect((await askCode(u.token)).status).toBe(200);
    const second = await askCode(u.token);
    expect(second.status).toBe(429);
    expect(second.body.retryAfter).toBeGreaterThan(0);
    expect(await allRows(t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, u.email)))).toHaveLength(1);
  });

  it('an account on its own password needs no code: asking for one is 409, and it changes with the current password', async () => {
    const u = await t.createUser('OWNPW1');
    expect((await askCode(u.token)).status).toBe(409);
    expect((await change(u.token, { currentPassword: 'secret123', newPassword: 'next-pw-123' })).status).toBe(200);
  });

  it('anonymous callers get 401', async () => {
    expect((await t.request('POST', '/api/auth/change-password/code', { body: {} })).status).toBe(401);
    expect((await t.request('POST', '/api/auth/password-codes', { body: { userId: 1 } })).status).toBe(401);
  });
});

describe('an administrator who may manage the account issues a code', () => {
  it('shown once to the administrator; the owner changes the password with it', async () => {
    const u = await defaultAccount('20250101');
    const issued = await t.request('POST', '/api/auth/password-codes', { token: t.adminToken, body: { userId: u.id } });
    expect(issued.status).toBe(201);
    expect(issued.body.code).toMatch(/^\d{6}$/);
    expect((await firstRow(t.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, u.id))))!.issuedBy).toBe(t.admin.user.id);
    const ok = await change(u.token, { currentPassword: u.password, newPassword: 'owner-pw-123', code: issued.body.code });
    expect(ok.status).toBe(200);
    expect(await auditRows(t, 'auth.password_code_issued', t.admin.user.id)).toHaveLength(1);
  });

  it('refused to those who may not manage the account, and to the default-password session itself', async () => {
    const u = await defaultAccount('20250102');
    const plain = await t.createUser('NOPERM1');
    expect((await t.request('POST', '/api/auth/password-codes', { token: plain.token, body: { userId: u.id } })).status).toBe(403);
    // A unit's user manager does not reach a user outside the unit.
    const unit = await t.createOrg('doan_co_so', 'UNIT-PC');
    const manager = await t.createUser('UNITMGR1', [
      { roleId: await t.createRole('pc-manager', ['users.access', 'users.update']), organizationId: unit },
    ]);
    expect((await t.request('POST', '/api/auth/password-codes', { token: manager.token, body: { userId: u.id } })).status).toBe(404);
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: unit, userId: u.id, role: 'member' }));
    expect((await t.request('POST', '/api/auth/password-codes', { token: manager.token, body: { userId: u.id } })).status).toBe(201);
    // The attacker holding only the default password cannot issue one to themselves.
    expect((await t.request('POST', '/api/auth/password-codes', { token: u.token, body: { userId: u.id } })).status).toBe(403);
    expect((await t.request('POST', '/api/auth/password-codes', { token: t.adminToken, body: { userId: 'x' } })).status).toBe(400);
    expect((await t.request('POST', '/api/auth/password-codes', { token: t.adminToken, body: { userId: 999999 } })).status).toBe(404);
  });
});

describe('sign-ins with a default password are throttled per address', () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await makeTestApp({ LOGIN_RATE_LIMIT: '3', TRUST_PROXY: 'true' });
  });
  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  it('past LOGIN_RATE_LIMIT from one address: 429 without tokens; other addresses and own passwords still sign in', async () => {
    const accounts = await mapInOrder(['30250001', '30250002', '30250003', '30250004'], (code) =>
      insertUser(s, code, { mustChangePassword: true }),
    );
    for (const a of accounts.slice(0, 3)) expect((await login(s, a.email, a.code, from('203.0.113.50'))).status).toBe(200);
    const blocked = await login(s, accounts[3]!.email, accounts[3]!.code, from('203.0.113.50'));
    expect(blocked.status).toBe(429);
    expect(blocked.body.accessToken).toBeUndefined();
    expect(blocked.body.retryAfter).toBeGreaterThan(0);
    expect((await login(s, accounts[3]!.email, accounts[3]!.code, from('198.51.100.7'))).status).toBe(200);
    const own = await s.createUser('OWNPW2');
    expect((await login(s, own.email, 'secret123', from('203.0.113.50'))).status).toBe(200);
  });
});

describe("a session on the default password is not shown the owner's contact details", () => {
  it('sign-in and /auth/profile answer no phone until the password is changed with a code', async () => {
    const u = await defaultAccount('20250099');
    await runQuery(t.db.update(users).set({ phone: '0912000099' }).where(eq(users.id, u.id)));
    const again = await login(t, u.email, u.password);
    expect(again.body.user).toMatchObject({ mustChangePassword: true, phone: null });
    expect((await t.request('GET', '/api/auth/profile', { token: again.body.accessToken })).body).toMatchObject({ phone: null });
    expect((await t.request('GET', '/api/auth/me/profile', { token: again.body.accessToken })).status).toBe(403);
    await askCode(again.body.accessToken);
    expect(
      (
        await change(again.body.accessToken, {
          currentPassword: u.password,
          newPassword: 'chu-tai-khoan-1',
          code: await outboxCode(t, u.email),
        })
      ).status,
    ).toBe(200);
    const owner = await login(t, u.email, 'chu-tai-khoan-1');
    expect(owner.body.user.phone).toBe('0912000099');
  });
});
