/**
 * Google sign-in (000 §4) against a local stand-in provider: authorization code with PKCE, state
 * cookie, user lookup by e-mail, redirect to /auth/callback with a one-time code (exchanged by POST
 * from the browser that started the sign-in) or an error.
 */
import { eq } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { oneTimeCodes } from '../db/tables/auth';
import { auditRows, setUserActive } from './test-helpers';
import { allRows, runQuery } from '../db/engine';

/** What the stand-in provider knows: authorization code → the identity it vouches for. */
const identities = new Map<string, { email: string; email_verified?: boolean }>();
/** code_challenge seen on /auth per code, checked against the verifier on /token. */
let expectedChallenge: string | null = null;
const tokenRequests: URLSearchParams[] = [];
let provider: Server;
let base = '';

function readBody(req: import('node:http').IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let s = '';
    req.on('data', (d) => (s += d));
    req.on('end', () => resolve(s));
  });
}

beforeAll(async () => {
  provider = createServer(
    (req, res) =>
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://stand-in');
        const json = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (url.pathname === '/token' && req.method === 'POST') {
          const form = new URLSearchParams(await readBody(req));
          tokenRequests.push(form);
          const basic = Buffer.from('x:y').toString('base64');
          if (req.headers.authorization !== `Basic ${basic}`) return json(401, { error: 'invalid_client' });
          const code = form.get('code') ?? '';
          const verifier = form.get('code_verifier') ?? '';
          const challenge = createHash('sha256').update(verifier).digest('base64url');
          if (form.get('grant_type') !== 'authorization_code' || !identities.has(code)) return json(400, { error: 'invalid_grant' });
          if (challenge !== expectedChallenge) return json(400, { error: 'invalid_grant', error_description: 'PKCE' });
          return json(200, { access_token: `at-${code}`, token_type: 'Bearer', expires_in: 3600 });
        }
        if (url.pathname === '/userinfo') {
          const code = (req.headers.authorization ?? '').replace(/^Bearer at-/, '');
          const who = identities.get(code);
          if (!who) return json(401, { error: 'invalid_token' });
          return json(200, { sub: `g-${code}`, email_verified: true, ...who });
        }
        json(404, { error: 'not_found' });
      })(),
  );
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => provider.close(() => r())));

const googleEnv = () => ({
  GOOGLE_CLIENT_ID: 'x',
  GOOGLE_CLIENT_SECRET: 'y',
  GOOGLE_AUTH_URL: `${base}/auth`,
  GOOGLE_TOKEN_URL: `${base}/token`,
  GOOGLE_USERINFO_URL: `${base}/userinfo`,
  PUBLIC_URL: 'http://localhost',
});

/** "a=1; Path=/; HttpOnly" ×n → "a=1; b=2" */
function cookieHeader(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** Starts a sign-in the way the browser does: /auth/google, then the API endpoint it points to. */
async function start(t: TestApp) {
  const first = await t.request('GET', '/auth/google');
  expect(first.status).toBe(302);
  const apiPath = first.headers.get('location')!;
  expect(apiPath).toBe('/api/auth/google');
  const res = await t.request('GET', apiPath);
  expect(res.status).toBe(302);
  const location = new URL(res.headers.get('location')!);
  expectedChallenge = location.searchParams.get('code_challenge');
  return { res, location, cookie: cookieHeader(res.headers), state: location.searchParams.get('state')! };
}

async function exchange(t: TestApp, code: string, cookie?: string) {
  return t.request('POST', '/api/auth/google/exchange', { body: { code }, headers: cookie ? { cookie } : {} });
}

async function callback(t: TestApp, query: Record<string, string>, cookie?: string) {
  const res = await t.request('GET', `/api/auth/google/callback?${new URLSearchParams(query)}`, {
    headers: cookie ? { cookie } : {},
  });
  expect(res.status).toBe(302);
  const location = res.headers.get('location')!;
  expect(location.startsWith('/auth/callback?')).toBe(true);
  return { res, params: new URL(location, 'http://localhost').searchParams };
}

describe('Google sign-in, configured', () => {
  let t: TestApp;
  let user: Awaited<ReturnType<TestApp['createUser']>>;
  beforeAll(async () => {
    t = await makeTestApp(googleEnv());
    user = await t.createUser('GG1');
  });

  it('redirects to the provider with client id, callback URI, state and an S256 code challenge', async () => {
    const { res, location, state } = await start(t);
    expect(`${location.origin}${location.pathname}`).toBe(`${base}/auth`);
    expect(location.searchParams.get('response_type')).toBe('code');
    expect(location.searchParams.get('client_id')).toBe('x');
    expect(location.searchParams.get('redirect_uri')).toBe('http://localhost/api/auth/google/callback');
    expect(location.searchParams.get('code_challenge_method')).toBe('S256');
    expect(location.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(location.searchParams.get('scope')).toContain('email');
    expect(state.length).toBeGreaterThan(10);
    const cookies = res.headers.getSetCookie();
    expect(cookies.some((c) => c.startsWith(`google_oauth_state=${state}`) && /HttpOnly/i.test(c))).toBe(true);
    expect(cookies.some((c) => c.startsWith('google_oauth_verifier='))).toBe(true);
  });

  it('signs in a known e-mail: a one-time code in the URL (never tokens), exchanged for tokens that work', async () => {
    const { cookie, state } = await start(t);
    identities.set('abc', { email: user.email });
    const { res, params } = await callback(t, { code: 'abc', state }, cookie);
    expect(params.get('error')).toBeNull();
    // Issue 25 item 9: the URL carries a code only.
    expect(params.get('token')).toBeNull();
    expect(params.get('refresh_token')).toBeNull();
    const exchanged = await exchange(t, params.get('code')!, cookie);
    expect(exchanged.status).toBe(200);
    const token = exchanged.body.accessToken as string;
    const refreshToken = exchanged.body.refreshToken as string;
    expect(exchanged.body.user.email).toBe(user.email);
    expect(token).toBeTruthy();
    expect(refreshToken).toBeTruthy();

    const me = await t.request('GET', '/api/auth/profile', { token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(user.email);
    expect((await t.request('POST', '/api/auth/refresh', { body: { refreshToken } })).status).toBe(200);

    // The provider saw our callback URI and the PKCE verifier.
    const sent = tokenRequests.at(-1)!;
    expect(sent.get('redirect_uri')).toBe('http://localhost/api/auth/google/callback');
    expect(sent.get('code_verifier')).toBeTruthy();
    // The one-time cookies are cleared.
    expect(res.headers.getSetCookie().some((c) => c.startsWith('google_oauth_state=;'))).toBe(true);
    expect(await auditRows(t, 'auth.login_google', user.id)).toHaveLength(1);
  });

  it('matches the e-mail case-insensitively', async () => {
    const { cookie, state } = await start(t);
    identities.set('upper', { email: 'GG1@TEST.VN' });
    const { params } = await callback(t, { code: 'upper', state }, cookie);
    expect((await exchange(t, params.get('code')!, cookie)).body.user.id).toBe(user.id);
  });

  it('the code works once, and is stored only as a hash', async () => {
    const { cookie, state } = await start(t);
    identities.set('once', { email: user.email });
    const oneTime = (await callback(t, { code: 'once', state }, cookie)).params.get('code')!;
    expect((await allRows(t.db.select().from(oneTimeCodes))).some((r) => r.codeHash === oneTime)).toBe(false);
    expect((await exchange(t, oneTime, cookie)).status).toBe(200);
    const again = await exchange(t, oneTime, cookie);
    expect(again.status).toBe(400);
    expect(again.body.message).toContain('không hợp lệ hoặc đã hết hạn');
  });

  it('another browser (without the cookie set when the sign-in started) cannot use the code, and spends it', async () => {
    const { cookie, state } = await start(t);
    identities.set('swap', { email: user.email });
    const oneTime = (await callback(t, { code: 'swap', state }, cookie)).params.get('code')!;
    const victim = await start(t);
    expect((await exchange(t, oneTime, victim.cookie)).status).toBe(400);
    expect((await exchange(t, oneTime)).status).toBe(400);
    expect((await exchange(t, oneTime, cookie)).status).toBe(400);
  });

  it('an expired code is refused (60 seconds)', async () => {
    const { cookie, state } = await start(t);
    identities.set('late', { email: user.email });
    const oneTime = (await callback(t, { code: 'late', state }, cookie)).params.get('code')!;
    await runQuery(
      t.db
        .update(oneTimeCodes)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(oneTimeCodes.purpose, 'google_sign_in')),
    );
    expect((await exchange(t, oneTime, cookie)).status).toBe(400);
  });

  it('bad input and an unknown code are 400', async () => {
    expect((await t.request('POST', '/api/auth/google/exchange', { body: {} })).status).toBe(400);
    expect((await t.request('POST', '/api/auth/google/exchange', { body: { code: 'short' } })).status).toBe(400);
    expect((await exchange(t, 'x'.repeat(43))).status).toBe(400);
  });

  it('an unknown e-mail ends with error=user_not_found and no tokens', async () => {
    const { cookie, state } = await start(t);
    identities.set('stranger', { email: 'stranger@gmail.com' });
    const { params } = await callback(t, { code: 'stranger', state }, cookie);
    expect(params.get('error')).toBe('user_not_found');
    expect(params.get('token')).toBeNull();
  });

  it('a deactivated account is not signed in', async () => {
    const u = await t.createUser('GG_OFF');
    await setUserActive(t, u.id, false);
    const { cookie, state } = await start(t);
    identities.set('off', { email: u.email });
    const { params } = await callback(t, { code: 'off', state }, cookie);
    expect(params.get('error')).toBe('user_not_found');
  });

  it('an unverified e-mail is refused', async () => {
    const { cookie, state } = await start(t);
    identities.set('unverified', { email: user.email, email_verified: false });
    const { params } = await callback(t, { code: 'unverified', state }, cookie);
    expect(params.get('error')).toBe('google_email_unverified');
    expect(params.get('token')).toBeNull();
  });

  it('an identity that does not say the e-mail is verified is refused too', async () => {
    const { cookie, state } = await start(t);
    identities.set('silent', { email: user.email, email_verified: undefined });
    const { params } = await callback(t, { code: 'silent', state }, cookie);
    expect(params.get('error')).toBe('google_email_unverified');
  });

  it('a state that does not match the cookie is refused before the provider is asked', async () => {
    const { cookie } = await start(t);
    identities.set('abc', { email: user.email });
    const before = tokenRequests.length;
    const { params } = await callback(t, { code: 'abc', state: 'forged-state' }, cookie);
    expect(params.get('error')).toBe('invalid_state');
    expect(params.get('token')).toBeNull();
    expect(tokenRequests.length).toBe(before);
  });

  it('a callback without the cookies (another browser) is refused', async () => {
    const { state } = await start(t);
    const { params } = await callback(t, { code: 'abc', state });
    expect(params.get('error')).toBe('invalid_state');
  });

  it('a callback without a code is refused', async () => {
    const { cookie, state } = await start(t);
    const { params } = await callback(t, { state }, cookie);
    expect(params.get('error')).toBe('invalid_state');
  });

  it('a code the provider rejects ends with an error', async () => {
    const { cookie, state } = await start(t);
    const { params } = await callback(t, { code: 'unknown-code', state }, cookie);
    expect(params.get('error')).toBe('googleLoginFailed');
    expect(params.get('token')).toBeNull();
  });

  it('passes the provider’s error through (e.g. the user cancelled)', async () => {
    const { cookie, state } = await start(t);
    const { res, params } = await callback(t, { error: 'access_denied', state }, cookie);
    expect(params.get('error')).toBe('access_denied');
    expect(res.headers.getSetCookie().some((c) => c.startsWith('google_oauth_state=;'))).toBe(true);
  });
});

describe('Google sign-in, not configured', () => {
  it('redirects to /auth/callback?error=google_not_configured', async () => {
    const t = await makeTestApp();
    const first = await t.request('GET', '/auth/google');
    const res = await t.request('GET', first.headers.get('location')!);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/auth/callback?error=google_not_configured');
    const { params } = await callback(t, { code: 'abc', state: 'x' }, 'google_oauth_state=x; google_oauth_verifier=v');
    expect(params.get('error')).toBe('google_not_configured');
  });
});

describe('GET /api/auth/providers (public)', () => {
  it('says google: false without a client id and secret, with no session needed', async () => {
    const t = await makeTestApp();
    const res = await t.request('GET', '/api/auth/providers');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ google: false });
    const half = await makeTestApp({ GOOGLE_CLIENT_ID: 'x' });
    expect((await half.request('GET', '/api/auth/providers')).body).toEqual({ google: false });
  });

  it('says google: true when both are configured, and is listed in /api/docs', async () => {
    const t = await makeTestApp(googleEnv());
    expect((await t.request('GET', '/api/auth/providers')).body).toEqual({ google: true });
    const docs = (await t.request('GET', '/api/docs')).body as { paths: Record<string, unknown> };
    expect(Object.keys(docs.paths)).toContain('/auth/providers');
  });
});

describe('Google sign-in without PUBLIC_URL', () => {
  // Issue 10 item 3's rule for every outbound URL: the callback URI never comes from the request's Host.
  it('the callback URI is the listening address, not a forged Host', async () => {
    const { PUBLIC_URL: _unused, ...env } = googleEnv();
    const t = await makeTestApp({ ...env, PORT: '3999' });
    const res = await t.app.request('http://evil.example/api/auth/google', { headers: { host: 'evil.example' } });
    expect(res.status).toBe(302);
    const redirect = new URL(res.headers.get('location')!).searchParams.get('redirect_uri');
    expect(redirect).toBe('http://localhost:3999/api/auth/google/callback');
  });
});
