/**
 * Issue 30 item 7: a forgotten password. The request answers 202 the same way for any e-mail and
 * is throttled per e-mail and per address; the e-mailed link (PUBLIC_URL, admin for staff, portal
 * for members) works once within 30 minutes and its reset ends every session.
 */
import { and, desc, eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { emailOutbox } from '../db/tables/reminders';
import { makeTestApp, type TestApp } from '../test/harness';
import { oneTimeCodes } from '../db/tables/auth';
import { auditRows, insertUser, login, mailedCode, outboxCode, userRow } from './test-helpers';
import { allRows, firstRow } from '../db/engine';

const PUBLIC_URL = 'https://doanhoi.example.edu.vn';
let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ PUBLIC_URL, PAYOS_SANDBOX_PUBLIC: 'true', TRUST_PROXY: 'true' });
});
afterEach(() => {
  vi.useRealTimers();
});

let addresses = 0;
/** Each call from its own address unless one is given, so the per-address limit stays out of the way. */
const forgot = (email: unknown, ip = `10.30.7.${++addresses}`, headers: Record<string, string> = {}) =>
  t.request('POST', '/api/auth/forgot-password', { body: { email }, headers: { 'x-forwarded-for': ip, ...headers } });
const reset = (token: unknown, password: unknown, ip = `10.31.7.${++addresses}`) =>
  t.request('POST', '/api/auth/reset-password', { body: { token, password }, headers: { 'x-forwarded-for': ip } });

const mailsTo = async (email: string) =>
  await allRows(t.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, email)).orderBy(desc(emailOutbox.id)));
/** The work runs after the answer: wait for the e-mail. */
async function mailedLink(email: string, count = 1): Promise<{ link: string; token: string }> {
  await expect.poll(async () => (await mailsTo(email)).length).toBe(count);
  const link = (await mailsTo(email))[0]!.text.match(/https?:\/\/\S+reset-password\?token=[A-Za-z0-9_-]+/)?.[0];
  if (!link) throw new Error(`no reset link e-mailed to ${email}`);
  return { link, token: new URL(link).searchParams.get('token')! };
}
const settle = () => new Promise((r) => setImmediate(r));

describe('POST /auth/forgot-password', () => {
  it('answers 202 with the same body for a known and an unknown e-mail; only the account gets an e-mail', async () => {
    const u = await insertUser(t, '30070001', { passwordHash: 'x' });
    const known = await forgot(u.email);
    const unknown = await forgot('nobody-30070001@sv.edu.vn');
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    expect(known.body.message).toContain('30 phút');
    expect([...unknown.headers.keys()].sort()).toEqual([...known.headers.keys()].sort());
    await mailedLink(u.email);
    await settle();
    expect(await mailsTo('nobody-30070001@sv.edu.vn')).toHaveLength(0);
    expect((await auditRows(t, 'auth.password_reset_requested')).some((r) => r.entityId === String(u.id))).toBe(true);
  });

  it('the e-mail is case-insensitive, and an inactive account gets nothing', async () => {
    const u = await insertUser(t, '30070002', { passwordHash: 'x' });
    expect((await forgot(u.email.toUpperCase())).status).toBe(202);
    await mailedLink(u.email);
    const off = await insertUser(t, '30070003', { passwordHash: 'x', isActive: false });
    expect((await forgot(off.email)).status).toBe(202);
    await settle();
    expect(await mailsTo(off.email)).toHaveLength(0);
  });

  it('the link goes to PUBLIC_URL, never the Host asked: the portal for members, the admin for staff; only a hash is stored', async () => {
    const member = await insertUser(t, '30070004', { passwordHash: 'x' });
    await forgot(member.email, undefined, { host: 'evil.example', 'x-forwarded-host': 'evil.example' });
    const { link, token } = await mailedLink(member.email);
    expect(link.startsWith(`${PUBLIC_URL}/payment/reset-password?token=`)).toBe(true);
    const stored = await allRows(
      t.db
        .select()
        .from(oneTimeCodes)
        .where(and(eq(oneTimeCodes.userId, member.id), eq(oneTimeCodes.purpose, 'password_reset'))),
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]!.codeHash).not.toContain(token);
    expect(stored[0]!.expiresAt.getTime() - stored[0]!.createdAt.getTime()).toBe(30 * 60_000);

    const roleId = await t.createRole('reset-staff', ['users.access']);
    const staff = await t.createUser('RESETSTAFF1', [{ roleId }]);
    await forgot(staff.email);
    expect((await mailedLink(staff.email)).link.startsWith(`${PUBLIC_URL}/reset-password?token=`)).toBe(true);
  });

  it('bad input is 400', async () => {
    for (const body of [{}, { email: '' }, { email: 'not-an-email' }, { email: 42 }]) {
      const res = await t.request('POST', '/api/auth/forgot-password', { body });
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
  });

  it('the e-mail is sitting in the outbox: global log readers see the link, a campaign sender does not; it is hidden once spent', async () => {
    const u = await insertUser(t, '30070005', { passwordHash: 'x' });
    await forgot(u.email);
    const { token } = await mailedLink(u.email);
    const seen = await t.request('GET', '/api/reminders/outbox?limit=100', { token: t.adminToken });
    expect(seen.body.data.emails.some((e: { to: string; text: string }) => e.to === u.email && e.text.includes(token))).toBe(true);

    const org = await t.createOrg('doan_truong', 'RESET-ORG');
    const senderRole = await t.createRole('reset-sender', ['payment-campaigns.send_reminders', 'payment-campaigns.access']);
    const sender = await t.createUser('RESETSENDER', [{ roleId: senderRole, organizationId: org }]);
    const theirs = await t.request('GET', '/api/reminders/outbox?limit=100', { token: sender.token });
    expect(JSON.stringify(theirs.body)).not.toContain(token);

    expect((await reset(token, 'brand-new-pw-1')).status).toBe(200);
    expect((await mailsTo(u.email))[0]!.text).not.toContain(token);
  });
});

describe('throttles', () => {
  it('per e-mail: past the limit 429 from any address, the same for an unknown e-mail', async () => {
    const u = await insertUser(t, '30070010', { passwordHash: 'x' });
    const unknown = 'nobody-30070010@sv.edu.vn';
    for (let i = 0; i < 3; i++) {
      expect((await forgot(u.email)).status).toBe(202);
      expect((await forgot(unknown)).status).toBe(202);
    }
    const a = await forgot(u.email);
    const b = await forgot(unknown);
    expect(a.status).toBe(429);
    expect(b.status).toBe(429);
    expect(a.headers.get('retry-after')).toBeTruthy();
    expect(a.body.message).toBe(b.body.message);
    expect(a.body.message).toContain('quá nhiều lần');
    // The e-mails go out after the answers, each after awaited reads (on PostgreSQL, over the network).
    await expect.poll(async () => (await mailsTo(u.email)).length).toBe(3);
  });

  it('per address: past the limit 429 for any e-mail from it', async () => {
    const ip = '10.30.99.1';
    for (let i = 0; i < 20; i++) expect((await forgot(`spray-${i}@sv.edu.vn`, ip)).status).toBe(202);
    const refused = await forgot('spray-20@sv.edu.vn', ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await forgot('spray-21@sv.edu.vn', '10.30.99.2')).status).toBe(202);
  });
});

describe('POST /auth/reset-password', () => {
  it('sets the password, kills every session (access and refresh) and the link; the new password signs in', async () => {
    const u = await t.createUser('RESETME1');
    const other = await t.login(u.email, 'secret123');
    await forgot(u.email);
    const { token } = await mailedLink(u.email);
    expect((await t.request('GET', '/api/auth/profile', { token: u.token })).status).toBe(200);

    const live = await t.request('POST', '/api/auth/reset-password/check', { body: { token } });
    expect(live.status).toBe(200);
    expect(Date.parse(live.body.expiresAt) - Date.now()).toBeGreaterThan(29 * 60_000);
    const done = await reset(token, 'my-new-pw-30');
    expect(done.status).toBe(200);
    expect(done.body.message).toContain('mật khẩu mới');
    for (const s of [u.token, other.accessToken]) expect((await t.request('GET', '/api/auth/profile', { token: s })).status).toBe(401);
    for (const r of [u.refreshToken, other.refreshToken])
      expect((await t.request('POST', '/api/auth/refresh', { body: { refreshToken: r } })).status).toBe(401);
    expect((await login(t, u.email, 'secret123')).status).toBe(401);
    expect((await login(t, u.email, 'my-new-pw-30')).status).toBe(200);

    const checked = await t.request('POST', '/api/auth/reset-password/check', { body: { token } });
    expect(checked.status).toBe(400);
    expect(checked.body).toMatchObject({ code: 'RESET_LINK_INVALID' });
    const again = await reset(token, 'another-pw-30');
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: 'RESET_LINK_INVALID' });
    expect(again.body.message).toContain('hết hạn');
    expect((await login(t, u.email, 'my-new-pw-30')).status).toBe(200);
    expect(await auditRows(t, 'auth.password_reset', u.id)).toHaveLength(1);
  });

  it('every other live link of the account dies with the one used', async () => {
    const u = await insertUser(t, '30070020', { passwordHash: 'x' });
    await forgot(u.email);
    const first = await mailedLink(u.email);
    await forgot(u.email);
    const second = await mailedLink(u.email, 2);
    expect(second.token).not.toBe(first.token);
    expect((await reset(second.token, 'chosen-pw-20')).status).toBe(200);
    expect((await reset(first.token, 'chosen-pw-21')).status).toBe(400);
    expect((await login(t, u.email, 'chosen-pw-20')).status).toBe(200);
  });

  it('a link is dead after 30 minutes', async () => {
    const u = await insertUser(t, '30070030', { passwordHash: 'x' });
    await forgot(u.email);
    const { token } = await mailedLink(u.email);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 29 * 60_000);
    const live = (await firstRow(t.db.select().from(oneTimeCodes).where(eq(oneTimeCodes.userId, u.id))))!;
    expect(live.expiresAt.getTime()).toBeGreaterThan(Date.now());
    vi.setSystemTime(Date.now() + 60_000 + 1000);
    expect((await t.request('POST', '/api/auth/reset-password/check', { body: { token } })).status).toBe(400);
    const late = await reset(token, 'too-late-pw-1');
    expect(late.status).toBe(400);
    expect(late.body).toMatchObject({ code: 'RESET_LINK_INVALID' });
    vi.useRealTimers();
    expect((await login(t, u.email, 'too-late-pw-1')).status).toBe(401);
  });

  it('works within 30 minutes', async () => {
    const u = await insertUser(t, '30070031', { passwordHash: 'x' });
    await forgot(u.email);
    const { token } = await mailedLink(u.email);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 29 * 60_000);
    expect((await reset(token, 'in-time-pw-1')).status).toBe(200);
  });

  it('a wrong token and bad input are 400, and change nothing', async () => {
    const u = await t.createUser('RESETME2');
    expect((await t.request('POST', '/api/auth/reset-password/check', { body: { token: 'A'.repeat(43) } })).status).toBe(400);
    expect((await t.request('POST', '/api/auth/reset-password/check', { body: {} })).status).toBe(400);
    const wrong = await reset('A'.repeat(43), 'whatever-pw-1');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'RESET_LINK_INVALID' });
    for (const [token, password] of [
      [undefined, 'whatever-pw-1'],
      ['', 'whatever-pw-1'],
      ['short', 'whatever-pw-1'],
      ['A'.repeat(43), undefined],
      ['A'.repeat(43), '123'],
      ['A'.repeat(43), '       '],
      ['A'.repeat(43), 'x'.repeat(129)],
    ]) {
      const res = await reset(token, password);
      expect(res.status, JSON.stringify([token, password])).toBe(400);
    }
    expect((await t.request('GET', '/api/auth/profile', { token: u.token })).status).toBe(200);
  });

  it('a default-password account: the reset is its chosen password (flag cleared, its password-change codes dead)', async () => {
    const u = await insertUser(t, '30070040', { mustChangePassword: true });
    const session = (await login(t, u.email, '30070040')).body.accessToken as string;
    const code = await mailedCode(t, session, u.email);
    await forgot(u.email);
    const { token } = await mailedLink(u.email, 2);
    expect((await reset(token, 'owner-chose-40')).status).toBe(200);
    expect((await userRow(t, u.id)).mustChangePassword).toBe(false);
    const fresh = (await login(t, u.email, 'owner-chose-40')).body;
    expect(fresh.user.mustChangePassword).toBe(false);
    expect((await t.request('GET', '/api/auth/me/organizations', { token: fresh.accessToken })).status).toBe(200);
    expect(
      (await firstRow(
        t.db
          .select()
          .from(oneTimeCodes)
          .where(and(eq(oneTimeCodes.userId, u.id), eq(oneTimeCodes.purpose, 'password_change'))),
      ))!.usedAt,
    ).not.toBeNull();
    await expect(outboxCode(t, u.email)).rejects.toThrow();
    expect(code).toMatch(/^\d{6}$/);
  });

  it('earlier failed sign-ins of the account no longer hold the new password back', async () => {
    const limited = await makeTestApp({ LOGIN_RATE_LIMIT: '2', TRUST_PROXY: 'true' });
    const u = await insertUser(limited, '30070050', { passwordHash: 'x' });
    const from = { 'x-forwarded-for': '10.30.50.1' };
    for (let i = 0; i < 2; i++) await login(limited, u.email, 'wrong-guess', from);
    expect((await login(limited, u.email, 'wrong-guess', from)).status).toBe(429);
    await limited.request('POST', '/api/auth/forgot-password', { body: { email: u.email }, headers: from });
    await expect
      .poll(async () => await firstRow(limited.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, u.email))))
      .toBeTruthy();
    const token = (await firstRow(limited.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, u.email))))!.text.match(
      /token=([A-Za-z0-9_-]+)/,
    )![1];
    expect(
      (await limited.request('POST', '/api/auth/reset-password', { body: { token, password: 'back-in-50' }, headers: from })).status,
    ).toBe(200);
    expect((await login(limited, u.email, 'back-in-50', from)).status).toBe(200);
  });
});
