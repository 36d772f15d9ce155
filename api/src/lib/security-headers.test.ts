/** Security headers (security issue item 9) on API answers, errors, the SPA fallback and the sandbox page. */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});

function expectHardened(h: Headers) {
  const csp = h.get('content-security-policy') ?? '';
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(h.get('x-content-type-options')).toBe('nosniff');
  expect(h.get('x-frame-options')).toBe('DENY');
  expect(h.get('referrer-policy')).toBe('no-referrer');
}

describe('security headers', () => {
  it('on API answers: success, 401, 400 and an unknown API path', async () => {
    const ok = await t.request('GET', '/api/auth/profile', { token: t.adminToken });
    expect(ok.status).toBe(200);
    expectHardened(ok.headers);
    expect(ok.headers.get('content-security-policy')).toContain("form-action 'self'");
    expectHardened((await t.request('GET', '/api/users')).headers);
    const bad = await t.request('POST', '/api/auth/login', { body: '{', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expectHardened(bad.headers);
    expectHardened((await t.request('GET', '/api/nothing-here')).headers);
  });

  it('on the front ends and translations', async () => {
    expectHardened((await t.request('GET', '/users')).headers);
    expectHardened((await t.request('GET', '/payment/my-campaigns')).headers);
    expectHardened((await t.request('GET', '/locales/vi/common.json')).headers);
  });

  it('on the payOS sandbox page, whose forms may be redirected to another origin (no form-action there)', async () => {
    const res = await t.request('GET', '/sandbox/payos/checkout/unknown');
    expect(res.status).toBe(404);
    expectHardened(res.headers);
    expect(res.headers.get('content-security-policy')).not.toContain('form-action');
  });
});
