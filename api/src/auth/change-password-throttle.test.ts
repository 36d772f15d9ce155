import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';

/**
 * Issue 10 item 5 through change-password: a stolen or unattended session must not guess the
 * current password faster than the sign-in throttle allows (else the password, reused elsewhere,
 * is learned at argon2 speed). Wrong current passwords count with the sign-in failures of that
 * account from that address; the owner elsewhere still signs in.
 */
describe('change-password shares the sign-in throttle', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ LOGIN_RATE_LIMIT: '3', LOGIN_IP_RATE_LIMIT: '50', LOGIN_MAX_DELAY_MS: '40', TRUST_PROXY: 'true' });
  });
  const attacker = { 'x-forwarded-for': '203.0.113.9' };
  const change = (token: string, currentPassword: string, headers = attacker) =>
    t.request('POST', '/api/auth/change-password', { token, headers, body: { currentPassword, newPassword: 'brand-new-pw1' } });

  it('answers 429 after N wrong current passwords, even for the right one, and the owner still signs in elsewhere', async () => {
    const u = await t.createUser('CPT1');
    for (let i = 0; i < 3; i++) expect((await change(u.token, `guess-${i}`)).status).toBe(400);
    const blocked = await change(u.token, 'guess-3');
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toContain('quá nhiều lần');
    expect((await change(u.token, 'secret123')).status).toBe(429);
    // The owner, from another address, signs in with the password the attacker did not change.
    const owner = await t.request('POST', '/api/auth/login', {
      headers: { 'x-forwarded-for': '198.51.100.20' },
      body: { email: u.email, password: 'secret123' },
    });
    expect(owner.status).toBe(200);
  });

  it('a right current password is not held back by earlier typos', async () => {
    const u = await t.createUser('CPT2');
    const home = { 'x-forwarded-for': '198.51.100.30' };
    expect((await change(u.token, 'typo-1', home)).status).toBe(400);
    expect((await change(u.token, 'secret123', home)).status).toBe(200);
  });
});
