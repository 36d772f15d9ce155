/** Profile, refresh rotation with reuse detection, logout and change-password (000 §4, §7; docs/decisions.md). */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { refreshTokens } from '../db/tables/auth';
import { auditRows, login, setUserActive } from './test-helpers';
import { hashToken, newFamilyId, signAccessToken } from '../access/tokens';
import { allRows, firstRow, runQuery } from '../db/engine';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});

const profile = (token?: string, headers?: Record<string, string>) => t.request('GET', '/api/auth/profile', { token, headers });
const refresh = (refreshToken: unknown) => t.request('POST', '/api/auth/refresh', { body: { refreshToken } });

describe('GET /api/auth/me/organizations', () => {
  it('lists the organizations the caller is an active member of, and nobody else', async () => {
    const { organizationMembers } = await import('../db/tables/organizations');
    const a = await t.createOrg('doan_co_so', 'MO-A');
    const b = await t.createOrg('doan_co_so', 'MO-B');
    const c = await t.createOrg('doan_co_so', 'MO-C');
    const u = await t.createUser('MO1');
    const other = await t.createUser('MO2');
    await runQuery(
      t.db.insert(organizationMembers).values([
        { userId: u.id, organizationId: b, isActive: true },
        { userId: u.id, organizationId: a, isActive: true },
        { userId: u.id, organizationId: c, isActive: false },
        { userId: other.id, organizationId: c, isActive: true },
      ]),
    );
    const res = await t.request('GET', '/api/auth/me/organizations', { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ organizationIds: [a, b] });
    expect((await t.request('GET', '/api/auth/me/organizations')).status).toBe(401);
  });
});

describe('GET /api/auth/profile', () => {
  it('returns the signed-in user without secrets', async () => {
    const u = await t.createUser('P1');
    const res = await profile(u.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: u.id, email: 'p1@test.vn', code: 'P1', userType: 'student', membershipStatus: 'none' });
    expect(res.body.passwordHash).toBeUndefined();
    expect(res.body.searchText).toBeUndefined();
  });

  it('401 without a token, with a garbage token or a non-Bearer header', async () => {
    for (const res of [
      await profile(),
      await profile('garbage'),
      await profile('a.b.c'),
      await profile(undefined, { authorization: 'Basic dXNlcjpwYXNz' }),
      await profile(undefined, { authorization: 'Bearer' }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Chưa đăng nhập hoặc phiên đăng nhập đã hết hạn');
    }
  });

  it('401 with an expired token', async () => {
    const u = await t.createUser('P2');
    const past = Math.floor(Date.now() / 1000) - 3600;
    const expired = await signAccessToken(t.env.jwtSecret, { id: u.id, email: u.email }, newFamilyId(), 900, past);
    expect((await profile(expired)).status).toBe(401);
    const fresh = await signAccessToken(t.env.jwtSecret, { id: u.id, email: u.email }, newFamilyId(), 900);
    expect((await profile(fresh)).status).toBe(200);
  });

  it('401 with a token signed by another secret or for an unknown user', async () => {
    const u = await t.createUser('P3');
    const forged = await signAccessToken('another-secret-0123456789', { id: u.id, email: u.email }, newFamilyId(), 900);
    expect((await profile(forged)).status).toBe(401);
    const ghost = await signAccessToken(t.env.jwtSecret, { id: 999_999, email: 'ghost@test.vn' }, newFamilyId(), 900);
    expect((await profile(ghost)).status).toBe(401);
  });
});

describe('POST /api/auth/refresh — rotation', () => {
  it('returns a new access and refresh token; the new access token works', async () => {
    const u = await t.createUser('R1');
    const res = await refresh(u.refreshToken);
    expect(res.status).toBe(200);
    expect(typeof res.body.accessToken).toBe('string');
    expect(typeof res.body.refreshToken).toBe('string');
    expect(res.body.refreshToken).not.toBe(u.refreshToken);
    const me = await profile(res.body.accessToken);
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(u.id);
  });

  it('a spent refresh token presented again fails and revokes the whole family (reuse detection)', async () => {
    const u = await t.createUser('R2');
    const first = await refresh(u.refreshToken);
    expect(first.status).toBe(200);
    const reuse = await refresh(u.refreshToken);
    expect(reuse.status).toBe(401);
    // The legitimate successor is revoked too, and so are the family's access tokens.
    expect((await refresh(first.body.refreshToken)).status).toBe(401);
    expect((await profile(first.body.accessToken)).status).toBe(401);
    expect((await profile(u.token)).status).toBe(401);
    expect(await auditRows(t, 'auth.refresh_reuse', u.id)).toHaveLength(1);
    const rows = await allRows(t.db.select().from(refreshTokens).where(eq(refreshTokens.userId, u.id)));
    expect(rows.every((r) => r.revokedAt != null)).toBe(true);
    expect(rows.map((r) => r.revokedReason).sort()).toEqual(['reuse', 'rotated']);
    // Another sign-in of the same user is a different family and keeps working.
    const other = await login(t, u.email, 'secret123');
    expect((await refresh(other.body.refreshToken)).status).toBe(200);
  });

  it('chains: each rotation spends the previous token', async () => {
    const u = await t.createUser('R3');
    let token = u.refreshToken;
    for (let i = 0; i < 3; i++) {
      const res = await refresh(token);
      expect(res.status).toBe(200);
      token = res.body.refreshToken;
    }
    expect((await refresh(token)).status).toBe(200);
  });

  it('stores only hashes of refresh tokens', async () => {
    const u = await t.createUser('R4');
    const row = await firstRow(
      t.db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashToken(u.refreshToken))),
    );
    expect(row?.userId).toBe(u.id);
    expect(await firstRow(t.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, u.refreshToken)))).toBeUndefined();
  });

  it('401 for an unknown token, 400 for a missing one', async () => {
    const res = await refresh('not-a-real-refresh-token');
    expect(res.status).toBe(401);
    expect(res.body.message).toContain('Refresh token');
    const missing = await t.request('POST', '/api/auth/refresh', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('Thiếu refresh token');
    expect((await refresh('')).status).toBe(400);
  });

  it('401 for an expired refresh token', async () => {
    const u = await t.createUser('R5');
    await runQuery(
      t.db
        .update(refreshTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(refreshTokens.tokenHash, hashToken(u.refreshToken))),
    );
    const res = await refresh(u.refreshToken);
    expect(res.status).toBe(401);
    expect(res.body.message).toContain('hết hạn');
  });

  it('401 when the account was deactivated', async () => {
    const u = await t.createUser('R6');
    await setUserActive(t, u.id, false);
    expect((await refresh(u.refreshToken)).status).toBe(401);
    await setUserActive(t, u.id, true);
  });
});

describe('POST /api/auth/logout', () => {
  it('revokes the session: its refresh token fails and its access token is refused', async () => {
    const u = await t.createUser('L1');
    const other = await login(t, u.email, 'secret123');
    const res = await t.request('POST', '/api/auth/logout', { token: u.token });
    expect(res.status).toBe(200);
    expect(typeof res.body.message).toBe('string');
    expect((await refresh(u.refreshToken)).status).toBe(401);
    expect((await profile(u.token)).status).toBe(401);
    expect((await t.request('POST', '/api/auth/logout', { token: u.token })).status).toBe(401);
    // The other sign-in is untouched.
    expect((await profile(other.body.accessToken)).status).toBe(200);
    expect((await refresh(other.body.refreshToken)).status).toBe(200);
  });

  it('also revokes refreshed tokens of the same family', async () => {
    const u = await t.createUser('L2');
    const rotated = await refresh(u.refreshToken);
    await t.request('POST', '/api/auth/logout', { token: rotated.body.accessToken });
    expect((await refresh(rotated.body.refreshToken)).status).toBe(401);
    expect((await profile(u.token)).status).toBe(401);
    // A logged-out token presented again is not "reuse": no reuse audit.
    expect(await auditRows(t, 'auth.refresh_reuse', u.id)).toHaveLength(0);
  });

  it('writes an audit row', async () => {
    const u = await t.createUser('L3');
    await t.request('POST', '/api/auth/logout', { token: u.token });
    const rows = await auditRows(t, 'auth.logout', u.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ entity: 'user', entityId: String(u.id) });
  });

  it('401 without a token', async () => {
    expect((await t.request('POST', '/api/auth/logout')).status).toBe(401);
  });
});

describe('POST /api/auth/change-password', () => {
  const change = (token: string | undefined, body: unknown, headers?: Record<string, string>) =>
    t.request('POST', '/api/auth/change-password', { token, body, headers });

  it('400 when the current password is wrong', async () => {
    const u = await t.createUser('C1');
    const res = await change(u.token, { currentPassword: 'not-mine', newPassword: 'new-password' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Mật khẩu hiện tại không đúng');
    // Named by its field, so the dialogs say it under the current password (issue 26 item 7).
    expect(res.body.errors).toEqual({ currentPassword: ['Mật khẩu hiện tại không đúng'] });
    expect((await login(t, u.email, 'secret123')).status).toBe(200);
  });

  it('400 when the new password is too short (translated) or unchanged', async () => {
    const u = await t.createUser('C2');
    const short = await change(u.token, { currentPassword: 'secret123', newPassword: '12345' });
    expect(short.status).toBe(400);
    expect(short.body.message).toContain('Mật khẩu phải có ít nhất 6 ký tự');
    const en = await change(u.token, { currentPassword: 'secret123', newPassword: '12345' }, { 'accept-language': 'en' });
    expect(en.body.message).toContain('Password must be at least 6 characters');
    const same = await change(u.token, { currentPassword: 'secret123', newPassword: 'secret123' });
    expect(same.status).toBe(400);
    expect(same.body.message).toContain('khác');
    expect(Object.keys(same.body.errors)).toEqual(['newPassword']);
    const missing = await change(u.token, {});
    expect(missing.status).toBe(400);
  });

  it('401 without a token', async () => {
    expect((await change(undefined, { currentPassword: 'secret123', newPassword: 'new-password' })).status).toBe(401);
  });

  it('changes the password, signs out the other sessions and keeps the current one', async () => {
    const u = await t.createUser('C3');
    const other = await login(t, u.email, 'secret123');
    const res = await change(u.token, { currentPassword: 'secret123', newPassword: 'new-password' });
    expect(res.status).toBe(200);
    expect(res.body.message).toContain('thành công');

    // Other session: refresh and access refused.
    expect((await refresh(other.body.refreshToken)).status).toBe(401);
    expect((await profile(other.body.accessToken)).status).toBe(401);
    // Current session: both still work.
    expect((await profile(u.token)).status).toBe(200);
    const rotated = await refresh(u.refreshToken);
    expect(rotated.status).toBe(200);
    expect((await profile(rotated.body.accessToken)).status).toBe(200);

    expect((await login(t, u.email, 'secret123')).status).toBe(401);
    expect((await login(t, u.email, 'new-password')).status).toBe(200);
    expect(await auditRows(t, 'auth.change_password', u.id)).toHaveLength(1);
    const revoked = await firstRow(
      t.db
        .select()
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, hashToken(other.body.refreshToken))),
    );
    expect(revoked?.revokedReason).toBe('password_change');
  });

  it('the audit row holds no password', async () => {
    const u = await t.createUser('C4');
    await change(u.token, { currentPassword: 'secret123', newPassword: 'very-secret-new' });
    const [row] = await auditRows(t, 'auth.change_password', u.id);
    expect(JSON.stringify(row)).not.toContain('very-secret-new');
    expect(JSON.stringify(row)).not.toContain('secret123');
  });
});
