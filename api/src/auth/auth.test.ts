/** POST /api/auth/login (000 §5, §7): credentials, validation, inactive accounts, imported accounts, throttling. */
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, makeTestApp, type TestApp } from '../test/harness';
import { hashPassword } from '../lib/passwords';
import { auditRows, insertUser, login, mailedCode, setUserActive, userRow } from './test-helpers';

const BAD_CREDENTIALS = 'Email hoặc mật khẩu không đúng';

describe('POST /api/auth/login', () => {
  let t: TestApp;
  let user: Awaited<ReturnType<TestApp['createUser']>>;
  beforeAll(async () => {
    t = await makeTestApp();
    user = await t.createUser('SV001');
  });

  it('signs in: access and refresh tokens and the user, never the hash', async () => {
    const res = await login(t, user.email, 'secret123');
    expect(res.status).toBe(200);
    expect(res.body.accessToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(typeof res.body.refreshToken).toBe('string');
    expect(res.body.refreshToken.length).toBeGreaterThan(20);
    expect(res.body.user).toMatchObject({
      id: user.id,
      code: 'SV001',
      email: 'sv001@test.vn',
      familyName: 'Nguyễn Văn',
      givenName: 'SV001',
      isActive: true,
      mustChangePassword: false,
    });
    expect(res.body.user.passwordHash).toBeUndefined();
    expect(res.body.user.searchText).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toContain('$argon2');
    expect(new Date(res.body.user.createdAt).toISOString()).toBe(res.body.user.createdAt);
  });

  it('each sign-in gets its own tokens', async () => {
    const a = await login(t, user.email, 'secret123');
    const b = await login(t, user.email, 'secret123');
    expect(a.body.refreshToken).not.toBe(b.body.refreshToken);
    expect(a.body.accessToken).not.toBe(b.body.accessToken);
  });

  it('accepts the e-mail in any case and with surrounding spaces', async () => {
    const res = await login(t, '  SV001@Test.VN ', 'secret123');
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
  });

  it('refuses a wrong password with 401 and the generic message', async () => {
    const res = await login(t, user.email, 'wrong-password');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: BAD_CREDENTIALS });
  });

  it('answers an unknown e-mail exactly like a wrong password', async () => {
    const res = await login(t, 'nobody@test.vn', 'secret123');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: BAD_CREDENTIALS });
  });

  it('answers malformed JSON with 400 and a message', async () => {
    const res = await t.request('POST', '/api/auth/login', {
      body: '{"email": "a@b.vn",',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect(res.body.message.length).toBeGreaterThan(0);
  });

  it('validates in Vietnamese by default: 400 with translated messages and issues', async () => {
    const res = await t.request('POST', '/api/auth/login', { body: { email: 'not-an-email', password: '123' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Email không hợp lệ');
    expect(res.body.message).toContain('Mật khẩu phải có ít nhất 6 ký tự');
    expect(res.body.message).not.toContain('validation.');
    expect(res.body.issues).toEqual(
      expect.arrayContaining([
        { path: 'email', message: 'Email không hợp lệ' },
        { path: 'password', message: 'Mật khẩu phải có ít nhất 6 ký tự' },
      ]),
    );
  });

  it('validates missing fields as required', async () => {
    const res = await t.request('POST', '/api/auth/login', { body: {} });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Vui lòng nhập email');
    expect(res.body.message).toContain('Vui lòng nhập mật khẩu');
  });

  it('validates in English with Accept-Language: en', async () => {
    const res = await t.request('POST', '/api/auth/login', {
      body: { email: 'not-an-email', password: '' },
      headers: { 'accept-language': 'en-US,en;q=0.9' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Invalid email address');
    expect(res.body.message).toContain('Please enter your password');
    expect(res.body.issues).toEqual(expect.arrayContaining([{ path: 'email', message: 'Invalid email address' }]));
  });

  it('refuses a deactivated account with 403 (after a correct password only)', async () => {
    const u = await t.createUser('SV_OFF');
    await setUserActive(t, u.id, false);
    const res = await login(t, u.email, 'secret123');
    expect(res.status).toBe(403);
    expect(res.body.message).toContain('vô hiệu hóa');
    const wrong = await login(t, u.email, 'nope-nope');
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe(BAD_CREDENTIALS);
    // Its existing session stops working too.
    expect((await t.request('GET', '/api/auth/profile', { token: u.token })).status).toBe(401);
  });

  it('writes an audit row for each sign-in, without secrets', async () => {
    const u = await t.createUser('SV_AUDIT');
    expect(await auditRows(t, 'auth.login', u.id)).toHaveLength(1);
    await login(t, u.email, 'secret123');
    const rows = await auditRows(t, 'auth.login', u.id);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ entity: 'user', entityId: String(u.id) });
    // Failed attempts are not attributed to the account.
    await login(t, u.email, 'wrong-password');
    expect(await auditRows(t, 'auth.login', u.id)).toHaveLength(2);
  });

  it('the seeded administrator signs in', async () => {
    const res = await login(t, ADMIN.email, ADMIN.password);
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(ADMIN.email);
  });
});

describe('imported accounts (no password hash, must change password)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });

  it('sign in with exactly the e-mail local part and are told to change it', async () => {
    const u = await insertUser(t, '20241234', { mustChangePassword: true });
    const res = await login(t, '20241234@sv.edu.vn', '20241234');
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: u.id, mustChangePassword: true });
    const profile = await t.request('GET', '/api/auth/profile', { token: res.body.accessToken });
    expect(profile.body.mustChangePassword).toBe(true);
  });

  it('refuse anything else, including the whole e-mail or another case', async () => {
    await insertUser(t, '20245678', { mustChangePassword: true });
    for (const password of ['20245679', '20245678@sv.edu.vn', '202456780', ' 20245678']) {
      const res = await login(t, '20245678@sv.edu.vn', password);
      expect(res.status, password).toBe(401);
      expect(res.body.message).toBe(BAD_CREDENTIALS);
    }
    await insertUser(t, 'ABCDEF', { email: 'Nguyen.An@sv.edu.vn'.toLowerCase(), mustChangePassword: true });
    expect((await login(t, 'nguyen.an@sv.edu.vn', 'NGUYEN.AN')).status).toBe(401);
    expect((await login(t, 'nguyen.an@sv.edu.vn', 'nguyen.an')).status).toBe(200);
  });

  it('a hash-less account no longer required to change its password accepts no password', async () => {
    await insertUser(t, '20249999', { mustChangePassword: false });
    const res = await login(t, '20249999@sv.edu.vn', '20249999');
    expect(res.status).toBe(401);
  });

  it('once the password is changed the local part stops working', async () => {
    const u = await insertUser(t, '20243333', { mustChangePassword: true });
    const first = await login(t, '20243333@sv.edu.vn', '20243333');
    // Issue 25 item 7: the first change also needs the code e-mailed to the account.
    const code = await mailedCode(t, first.body.accessToken, '20243333@sv.edu.vn');
    const changed = await t.request('POST', '/api/auth/change-password', {
      token: first.body.accessToken,
      body: { currentPassword: '20243333', newPassword: 'mat-khau-moi', code },
    });
    expect(changed.status).toBe(200);
    expect((await userRow(t, u.id)).mustChangePassword).toBe(false);
    expect((await userRow(t, u.id)).passwordHash).toMatch(/^\$argon2id\$/);
    expect((await login(t, '20243333@sv.edu.vn', '20243333')).status).toBe(401);
    const again = await login(t, '20243333@sv.edu.vn', 'mat-khau-moi');
    expect(again.status).toBe(200);
    expect(again.body.user.mustChangePassword).toBe(false);
  });

  it('an account with a hash is not opened by its local part', async () => {
    await insertUser(t, '20247777', { passwordHash: await hashPassword('real-password') });
    expect((await login(t, '20247777@sv.edu.vn', '20247777')).status).toBe(401);
    expect((await login(t, '20247777@sv.edu.vn', 'real-password')).status).toBe(200);
  });
});

describe('sign-in throttling (LOGIN_RATE_LIMIT)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ LOGIN_RATE_LIMIT: '3', LOGIN_IP_RATE_LIMIT: '3', LOGIN_MAX_DELAY_MS: '40', TRUST_PROXY: 'true' });
  });

  // Without a client address every caller shares one "address": the pair rule then acts per e-mail.
  it('answers 429 after N failures for an address and e-mail, even with the right password', async () => {
    const u = await t.createUser('RL1');
    for (let i = 0; i < 3; i++) expect((await login(t, u.email, 'wrong-password')).status).toBe(401);
    const blocked = await login(t, u.email, 'wrong-password');
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toContain('quá nhiều lần');
    expect(blocked.body.retryAfter).toBeGreaterThan(0);
    expect((await login(t, u.email, 'secret123')).status).toBe(429);
    // Other accounts are not affected (no client address here, so only the e-mail counts).
    const other = await t.createUser('RL2');
    expect((await login(t, other.email, 'secret123')).status).toBe(200);
  });

  it('counts the e-mail case-insensitively', async () => {
    const u = await t.createUser('RL3');
    await login(t, 'RL3@test.vn', 'wrong-password');
    await login(t, 'rl3@TEST.vn', 'wrong-password');
    await login(t, 'rl3@test.vn', 'wrong-password');
    expect((await login(t, u.email, 'secret123')).status).toBe(429);
  });

  it('a successful sign-in clears the e-mail failures', async () => {
    const u = await t.createUser('RL4');
    await login(t, u.email, 'wrong-password');
    await login(t, u.email, 'wrong-password');
    expect((await login(t, u.email, 'secret123')).status).toBe(200);
    await login(t, u.email, 'wrong-password');
    await login(t, u.email, 'wrong-password');
    expect((await login(t, u.email, 'secret123')).status).toBe(200);
  });

  it('counts failures per client address across e-mails', async () => {
    const ip = { 'x-forwarded-for': '203.0.113.7' };
    for (const e of ['x1@test.vn', 'x2@test.vn', 'x3@test.vn']) expect((await login(t, e, 'wrong-password', ip)).status).toBe(401);
    const u = await t.createUser('RL5');
    expect((await login(t, u.email, 'secret123', ip)).status).toBe(429);
    expect((await login(t, u.email, 'secret123', { 'x-forwarded-for': '198.51.100.1' })).status).toBe(200);
  });

  it('a burst of parallel guesses gets no more than N verifications', async () => {
    const u = await t.createUser('RL6');
    const results = await Promise.all(Array.from({ length: 10 }, () => login(t, u.email, 'wrong-password')));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });

  it('an attack on one account from many addresses never locks its owner out: slowed, not refused', async () => {
    const owner = await t.createUser('RL8');
    const attackers = ['192.0.2.10', '192.0.2.11', '192.0.2.12'].map((ip) => ({ 'x-forwarded-for': ip }));
    for (const ip of attackers) for (let i = 0; i < 3; i++) expect((await login(t, owner.email, 'wrong-password', ip)).status).toBe(401);
    for (const ip of attackers) expect((await login(t, owner.email, 'wrong-password', ip)).status).toBe(429);
    const started = Date.now();
    const res = await login(t, owner.email, 'secret123', { 'x-forwarded-for': '198.51.100.77' });
    expect(res.status).toBe(200);
    // The account's failures from anywhere delayed the answer (LOGIN_MAX_DELAY_MS = 40 here).
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
    // And again after the next wave: the lock-out cannot be renewed.
    for (let i = 0; i < 3; i++) await login(t, owner.email, 'wrong-password', { 'x-forwarded-for': `192.0.2.${20 + i}` });
    expect((await login(t, owner.email, 'secret123', { 'x-forwarded-for': '198.51.100.78' })).status).toBe(200);
  });

  it('validation errors do not count as failures', async () => {
    const u = await t.createUser('RL7');
    for (let i = 0; i < 5; i++) expect((await login(t, u.email, '123')).status).toBe(400);
    expect((await login(t, u.email, 'secret123')).status).toBe(200);
  });
});

describe('unknown API routes', () => {
  it('answer 404 JSON, signed in or not', async () => {
    const t = await makeTestApp();
    for (const token of [undefined, t.adminToken]) {
      const res = await t.request('GET', '/api/auth/nope', { token });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(typeof res.body.message).toBe('string');
    }
    const res = await t.request('POST', '/api/does-not-exist', { body: {} });
    expect(res.status).toBe(404);
    expect(res.body.message).toContain('Không tìm thấy');
    // A known path with the wrong method is not served either.
    expect((await t.request('GET', '/api/auth/login')).status).toBe(404);
  });
});
