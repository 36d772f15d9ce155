/** Unit tests: the sign-in throttle, token helpers, password checks and the revoked-family list. */
import { sign } from 'hono/jwt';
import { describe, expect, it } from 'vitest';
import { isFamilyRevoked, markFamilyRevoked } from '../access/actor';
import { checkPassword, defaultPasswordFor, hashPassword, verifyPassword } from '../lib/passwords';
import { LoginRateLimiter } from './rate-limit';
import { hashToken, newFamilyId, newRefreshToken, signAccessToken, verifyAccessToken } from '../access/tokens';

const SECRET = 'unit-test-secret-0123456789';

describe('LoginRateLimiter', () => {
  const T0 = 1_700_000_000_000;

  it('allows until the limit of failures, then tells how long to wait', async () => {
    const l = new LoginRateLimiter(3, 60_000);
    for (let i = 0; i < 3; i++) {
      expect(await l.retryAfter(null, 'a@b.vn', T0)).toBe(0);
      await l.recordFailure(null, 'a@b.vn', T0);
    }
    expect(await l.retryAfter(null, 'a@b.vn', T0)).toBe(60);
    expect(await l.retryAfter(null, 'a@b.vn', T0 + 30_500)).toBe(30);
  });

  it('forgets after the window', async () => {
    const l = new LoginRateLimiter(2, 60_000);
    await l.recordFailure(null, 'a@b.vn', T0);
    await l.recordFailure(null, 'a@b.vn', T0);
    expect(await l.retryAfter(null, 'a@b.vn', T0 + 59_999)).toBeGreaterThan(0);
    expect(await l.retryAfter(null, 'a@b.vn', T0 + 60_000)).toBe(0);
    // A failure after the window starts a new count.
    await l.recordFailure(null, 'a@b.vn', T0 + 60_000);
    expect(await l.retryAfter(null, 'a@b.vn', T0 + 60_000)).toBe(0);
  });

  // New rule (security issue item 5): an e-mail is never refused for failures from other addresses; it is slowed.
  it('refuses per address + e-mail (case-insensitive) and per address; failures from other addresses only delay', async () => {
    const l = new LoginRateLimiter(2, 60_000, { ipLimit: 2, maxDelayMs: 5_000 });
    await l.recordFailure('10.0.0.1', 'A@B.vn', T0);
    await l.recordFailure('10.0.0.1', 'a@b.VN', T0);
    expect(await l.retryAfter('10.0.0.1', 'a@b.vn', T0)).toBeGreaterThan(0); // that pair reached 2
    expect(await l.retryAfter('10.0.0.3', 'a@b.vn', T0)).toBe(0); // the owner elsewhere is not refused…
    expect(await l.delayMs('a@b.vn', T0)).toBe(250); // …but waits, more with each further failure
    await l.recordFailure('10.0.0.2', 'a@b.vn', T0);
    await l.recordFailure('10.0.0.4', 'a@b.vn', T0);
    expect(await l.delayMs('a@b.vn', T0)).toBe(1_000);
    for (let i = 0; i < 20; i++) await l.recordFailure(`10.1.0.${i}`, 'a@b.vn', T0);
    expect(await l.delayMs('a@b.vn', T0)).toBe(5_000); // capped
    expect(await l.retryAfter('10.0.0.1', 'c@d.vn', T0)).toBeGreaterThan(0); // the address reached its own limit
    expect(await l.retryAfter('10.0.0.9', 'c@d.vn', T0)).toBe(0);
  });

  it('a success clears the e-mail and takes back one attempt from the IP', async () => {
    const l = new LoginRateLimiter(2, 60_000, { ipLimit: 2 });
    await l.recordFailure('10.0.0.9', 'x@y.vn', T0);
    await l.recordFailure('10.0.0.9', 'x@y.vn', T0);
    await l.recordSuccess('10.0.0.9', 'x@y.vn');
    expect(await l.retryAfter('10.0.0.9', 'x@y.vn', T0)).toBe(0);
    expect(await l.delayMs('x@y.vn', T0)).toBe(0);
    expect(await l.retryAfter('10.0.0.9', 'other@y.vn', T0)).toBe(0); // 1 of 2 left
    await l.recordFailure('10.0.0.9', 'other@y.vn', T0);
    expect(await l.retryAfter('10.0.0.9', 'z@y.vn', T0)).toBeGreaterThan(0);
  });

  it('an attempt is counted before the check; a refused one counts nothing, and the delay reflects earlier failures', async () => {
    const l = new LoginRateLimiter(2, 60_000, { ipLimit: 10, maxDelayMs: 5_000 });
    expect(await l.attempt('10.0.0.1', 'a@b.vn', T0)).toEqual({ retryAfter: 0, delayMs: 0 });
    expect(await l.attempt('10.0.0.1', 'a@b.vn', T0)).toEqual({ retryAfter: 0, delayMs: 0 });
    expect(await l.attempt('10.0.0.1', 'a@b.vn', T0 + 1000)).toEqual({ retryAfter: 59, delayMs: 0 });
    // Two failures on the e-mail, not three: the owner elsewhere waits the first step.
    expect(await l.attempt('10.0.0.2', 'a@b.vn', T0)).toEqual({ retryAfter: 0, delayMs: 250 });
  });
});

describe('tokens', () => {
  it('hashToken is a deterministic SHA-256 hex digest', () => {
    expect(hashToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashToken('abc')).toBe(hashToken('abc'));
    expect(hashToken('abd')).not.toBe(hashToken('abc'));
  });

  it('refresh tokens and family ids are random', () => {
    const a = newRefreshToken();
    expect(a).toMatch(/^[\w-]{43}$/);
    expect(newRefreshToken()).not.toBe(a);
    expect(newFamilyId()).not.toBe(newFamilyId());
  });

  it('verifies its own access tokens and returns the claims', async () => {
    const token = await signAccessToken(SECRET, { id: 7, email: 'a@b.vn' }, 'fam-1', 900);
    const claims = await verifyAccessToken(SECRET, token);
    expect(claims).toMatchObject({ sub: 7, email: 'a@b.vn', fid: 'fam-1', typ: 'access' });
    expect(claims!.exp - claims!.iat).toBe(900);
  });

  it('a token verified once still expires on time and still needs the right secret', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await signAccessToken(SECRET, { id: 7, email: 'a@b.vn' }, 'fam-2', 60, now);
    expect(await verifyAccessToken(SECRET, token, now + 59)).not.toBeNull();
    expect(await verifyAccessToken(SECRET, token, now + 60)).toBeNull();
    expect(await verifyAccessToken('another-secret-0123456789', token, now + 1)).toBeNull();
  });

  it('rejects a token signed with another secret', async () => {
    const token = await signAccessToken('another-secret-0123456789', { id: 7, email: 'a@b.vn' }, 'fam-1', 900);
    expect(await verifyAccessToken(SECRET, token)).toBeNull();
  });

  it('rejects an expired token, a tampered one and garbage', async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await verifyAccessToken(SECRET, await signAccessToken(SECRET, { id: 7, email: 'a@b.vn' }, 'f', 60, now - 120))).toBeNull();
    const good = await signAccessToken(SECRET, { id: 7, email: 'a@b.vn' }, 'f', 60);
    const [h, , s] = good.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ sub: 1, email: 'x', fid: 'f', typ: 'access', iat: now, exp: now + 60 })).toString(
      'base64url',
    );
    expect(await verifyAccessToken(SECRET, `${h}.${forgedPayload}.${s}`)).toBeNull();
    expect(await verifyAccessToken(SECRET, 'garbage')).toBeNull();
    expect(await verifyAccessToken(SECRET, '')).toBeNull();
  });

  it('rejects correctly signed tokens that are not our access tokens', async () => {
    const now = Math.floor(Date.now() / 1000);
    const ok = { sub: 7, email: 'a@b.vn', fid: 'f', typ: 'access', iat: now, exp: now + 60 };
    expect(await verifyAccessToken(SECRET, await sign({ ...ok, typ: 'refresh' }, SECRET, 'HS256'))).toBeNull();
    expect(await verifyAccessToken(SECRET, await sign({ ...ok, sub: '7' }, SECRET, 'HS256'))).toBeNull();
    const { fid: _f, ...noFamily } = ok;
    expect(await verifyAccessToken(SECRET, await sign(noFamily, SECRET, 'HS256'))).toBeNull();
    const { exp: _e, ...neverExpires } = ok;
    expect(await verifyAccessToken(SECRET, await sign(neverExpires, SECRET, 'HS256'))).toBeNull();
    expect(await verifyAccessToken(SECRET, await sign(ok, SECRET, 'HS512'))).toBeNull();
    expect(await verifyAccessToken(SECRET, await sign(ok, SECRET, 'HS256'))).not.toBeNull();
  });
});

describe('passwords', () => {
  it('hashes with argon2id and verifies', async () => {
    const hash = await hashPassword('mat-khau');
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(hash, 'mat-khau')).toBe(true);
    expect(await verifyPassword(hash, 'mat-khao')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'mat-khau')).toBe(false);
  });

  it('the default password is the e-mail local part', () => {
    expect(defaultPasswordFor('20241234@sv.edu.vn')).toBe('20241234');
    expect(defaultPasswordFor('nguyen.an@x.vn')).toBe('nguyen.an');
  });

  it('checkPassword: hash when there is one; the local part only while a change is required; never for nobody', async () => {
    const hash = await hashPassword('secret1');
    expect(await checkPassword({ passwordHash: hash, email: 'a1@b.vn', mustChangePassword: true }, 'secret1')).toBe(true);
    expect(await checkPassword({ passwordHash: hash, email: 'a1@b.vn', mustChangePassword: true }, 'a1')).toBe(false);
    expect(await checkPassword({ passwordHash: null, email: 'abcdef@b.vn', mustChangePassword: true }, 'abcdef')).toBe(true);
    expect(await checkPassword({ passwordHash: null, email: 'abcdef@b.vn', mustChangePassword: false }, 'abcdef')).toBe(false);
    expect(await checkPassword({ passwordHash: null, email: '@b.vn', mustChangePassword: true }, '')).toBe(false);
    expect(await checkPassword(null, 'anything')).toBe(false);
    expect(await checkPassword(undefined, '')).toBe(false);
  });
});

describe('revoked families', () => {
  it('are remembered', () => {
    const f = newFamilyId();
    expect(isFamilyRevoked(f)).toBe(false);
    markFamilyRevoked(f, Date.now() + 60_000);
    expect(isFamilyRevoked(f)).toBe(true);
  });
});
