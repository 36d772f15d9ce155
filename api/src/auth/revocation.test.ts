import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../db/tables/roles';
import { makeTestApp, type TestApp } from '../test/harness';
import { simulateRestart } from '../access/revocation';
import { insertUser, login, mailedCode } from './test-helpers';
import { firstRow } from '../db/engine';

/**
 * Security issue items 4 and 6: a session on a default password is limited until the password is
 * changed; an administrator's reset, e-mail change, deactivation or removal of super admin ends
 * every session of that user at once, and revocations survive a restart.
 */
let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});

const me = (token: string) => t.request('GET', '/api/auth/me/permissions', { token });

/** A user signed in twice (two refresh-token families), each access token already used once (cached as verified). */
async function twoSessions(code: string) {
  const u = await t.createUser(code);
  const second = await t.login(u.email, 'secret123');
  expect((await me(u.token)).status).toBe(200);
  expect((await me(second.accessToken)).status).toBe(200);
  return {
    ...u,
    sessions: [
      { token: u.token, refresh: u.refreshToken },
      { token: second.accessToken, refresh: second.refreshToken },
    ],
  };
}

async function expectAllRevoked(sessions: { token: string; refresh: string }[]) {
  for (const s of sessions) {
    expect((await me(s.token)).status).toBe(401);
    expect((await t.request('POST', '/api/auth/refresh', { body: { refreshToken: s.refresh } })).status).toBe(401);
  }
}

describe('an administrator’s change ends every session of the user', () => {
  it('password reset', async () => {
    const u = await twoSessions('RVPW');
    expect((await t.request('PATCH', `/api/users/${u.id}`, { token: t.adminToken, body: { password: 'new-secret-1' } })).status).toBe(200);
    await expectAllRevoked(u.sessions);
    expect((await login(t, u.email, 'new-secret-1')).status).toBe(200);
  });

  it('e-mail change and deactivation', async () => {
    const a = await twoSessions('RVMAIL');
    expect((await t.request('PATCH', `/api/users/${a.id}`, { token: t.adminToken, body: { email: 'rvmail.new@test.vn' } })).status).toBe(
      200,
    );
    await expectAllRevoked(a.sessions);
    const b = await twoSessions('RVOFF');
    expect((await t.request('PATCH', `/api/users/${b.id}`, { token: t.adminToken, body: { isActive: false } })).status).toBe(200);
    expect((await t.request('PATCH', `/api/users/${b.id}`, { token: t.adminToken, body: { isActive: true } })).status).toBe(200);
    // Reactivating the account does not bring the old sessions back.
    await expectAllRevoked(b.sessions);
  });

  it('a harmless edit keeps the sessions', async () => {
    const u = await twoSessions('RVKEEP');
    expect((await t.request('PATCH', `/api/users/${u.id}`, { token: t.adminToken, body: { phone: '0911000111' } })).status).toBe(200);
    for (const s of u.sessions) expect((await me(s.token)).status).toBe(200);
  });

  it('removal of the super admin role', async () => {
    const superRole = (await firstRow(t.db.select().from(roles).where(eq(roles.name, 'super_admin'))))!;
    const u = await t.createUser('RVSUPER', [{ roleId: superRole.id }]);
    expect((await t.request('GET', '/api/users', { token: u.token })).status).toBe(200);
    const res = await t.request('POST', `/api/users/${u.id}/roles`, { token: t.adminToken, body: { roleAssignments: [] } });
    expect(res.status).toBe(200);
    expect((await me(u.token)).status).toBe(401);
    expect((await t.request('POST', '/api/auth/refresh', { body: { refreshToken: u.refreshToken } })).status).toBe(401);
  });
});

describe('revocations survive a restart', () => {
  it('a logged-out access token and a reset user’s tokens stay refused once the process forgot them', async () => {
    const out = await t.createUser('RVOUT');
    expect((await t.request('POST', '/api/auth/logout', { token: out.token })).status).toBe(200);
    const reset = await twoSessions('RVRST');
    expect((await t.request('PATCH', `/api/users/${reset.id}`, { token: t.adminToken, body: { password: 'new-secret-2' } })).status).toBe(
      200,
    );
    const alive = await t.createUser('RVALIVE');
    simulateRestart();
    expect((await me(out.token)).status).toBe(401);
    for (const s of reset.sessions) expect((await me(s.token)).status).toBe(401);
    expect((await me(alive.token)).status).toBe(200);
  });
});

describe('a session on a default password (mustChangePassword)', () => {
  it('may only read its profile, change the password and sign out; then it is a full session', async () => {
    const u = await insertUser(t, '20249999', { mustChangePassword: true });
    const res = await login(t, '20249999@sv.edu.vn', '20249999');
    expect(res.status).toBe(200);
    const token = res.body.accessToken as string;
    for (const [method, path] of [
      ['GET', '/api/auth/me/permissions'],
      ['GET', '/api/auth/me/organizations'],
      ['GET', '/api/users'],
      ['GET', '/api/organizations/tree'],
      ['GET', '/api/payment/assignments/my-assignments'],
    ] as const) {
      const r = await t.request(method, path, { token });
      expect(r.status, path).toBe(403);
      expect(r.body).toMatchObject({ message: 'Bạn cần đổi mật khẩu trước khi tiếp tục sử dụng hệ thống', code: 'MUST_CHANGE_PASSWORD' });
    }
    expect((await t.request('GET', '/api/auth/profile', { token })).body).toMatchObject({ id: u.id, mustChangePassword: true });
    // Issue 25 item 7: with the code e-mailed to the account.
    const code = await mailedCode(t, token, '20249999@sv.edu.vn');
    const changed = await t.request('POST', '/api/auth/change-password', {
      token,
      body: { currentPassword: '20249999', newPassword: 'my-own-pass-1', code },
    });
    expect(changed.status).toBe(200);
    expect((await me(token)).status).toBe(200);
  });

  it('an administrator-created account without a password is limited the same way, and may sign out', async () => {
    const created = await t.request('POST', '/api/users', {
      token: t.adminToken,
      body: { code: 'RVNEW01', familyName: 'Lê', givenName: 'Mới', email: 'rvnew01@sv.edu.vn', phone: '0912345678' },
    });
    expect(created.status).toBe(201);
    const res = await login(t, 'rvnew01@sv.edu.vn', 'rvnew01');
    expect((await me(res.body.accessToken)).status).toBe(403);
    expect((await t.request('POST', '/api/auth/logout', { token: res.body.accessToken })).status).toBe(200);
    expect((await t.request('GET', '/api/auth/profile', { token: res.body.accessToken })).status).toBe(401);
  });
});
