/**
 * Google sign-in with arctic's generic OAuth2 client (authorization code + PKCE). Endpoints come
 * from env.ts so tests can point them at a local stand-in provider. The callback URI is PUBLIC_URL
 * (else http://localhost:PORT), never the request's Host (decisions.md, outbound URLs).
 */
import { googleExchangeSchema, loginResponseSchema } from '@doanhoi/shared';
import { CodeChallengeMethod, generateCodeVerifier, generateState, OAuth2Client } from 'arctic';
import { Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { clientIp } from '../lib/headers';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { publicOrigin } from '../payos/origin';
import { authService } from './service';
import { ok, redirect } from '../lib/openapi/contract';

const STATE_COOKIE = 'google_oauth_state';
const VERIFIER_COOKIE = 'google_oauth_verifier';
/** Held by the browser that started the sign-in; the callback's code is only exchanged with it (issue 25 item 9). */
const BINDING_COOKIE = 'google_oauth_binding';
const BINDING_PATH = '/api/auth/google';

function callbackTo(query: Record<string, string>): string {
  return `/auth/callback?${new URLSearchParams(query).toString()}`;
}

export function googleRoutes() {
  return new Hono<AppEnv>()
    .get('/', redirect('To Google'), (c) => {
      const { env } = c.get('deps');
      if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) return c.redirect(callbackTo({ error: 'google_not_configured' }));
      const origin = publicOrigin(env);
      const client = new OAuth2Client(env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET, `${origin}/api/auth/google/callback`);
      const state = generateState();
      const verifier = generateCodeVerifier();
      const url = client.createAuthorizationURLWithPKCE(env.GOOGLE_AUTH_URL, state, CodeChallengeMethod.S256, verifier, [
        'openid',
        'email',
        'profile',
      ]);
      const opts = { httpOnly: true, sameSite: 'Lax' as const, path: '/', maxAge: 600, secure: origin.startsWith('https:') };
      setCookie(c, STATE_COOKIE, state, opts);
      setCookie(c, VERIFIER_COOKIE, verifier, opts);
      setCookie(c, BINDING_COOKIE, generateState(), { ...opts, path: BINDING_PATH });
      return c.redirect(url.toString());
    })
    .get('/callback', redirect('To /auth/callback with a one-time code (60 s, this browser only), or with an error'), async (c) => {
      const { env } = c.get('deps');
      const code = c.req.query('code');
      const state = c.req.query('state');
      const expected = getCookie(c, STATE_COOKIE);
      const verifier = getCookie(c, VERIFIER_COOKIE);
      const binding = getCookie(c, BINDING_COOKIE);
      // One attempt per state, whatever the outcome (a provider error included).
      deleteCookie(c, STATE_COOKIE, { path: '/' });
      deleteCookie(c, VERIFIER_COOKIE, { path: '/' });
      const providerError = c.req.query('error');
      if (providerError) return c.redirect(callbackTo({ error: providerError }));
      if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) return c.redirect(callbackTo({ error: 'google_not_configured' }));
      if (!code || !state || state !== expected || !verifier || !binding) return c.redirect(callbackTo({ error: 'invalid_state' }));
      try {
        const origin = publicOrigin(env);
        const client = new OAuth2Client(env.GOOGLE_CLIENT_ID, env.GOOGLE_CLIENT_SECRET, `${origin}/api/auth/google/callback`);
        const tokens = await client.validateAuthorizationCode(env.GOOGLE_TOKEN_URL, code, verifier);
        const res = await fetch(env.GOOGLE_USERINFO_URL, { headers: { authorization: `Bearer ${tokens.accessToken()}` } });
        if (!res.ok) return c.redirect(callbackTo({ error: 'google_userinfo_failed' }));
        const info = (await res.json()) as { email?: string; email_verified?: boolean };
        // An unverified address proves nothing about who signed in.
        if (!info.email || info.email_verified !== true) return c.redirect(callbackTo({ error: 'google_email_unverified' }));
        const oneTime = await authService(c.get('deps')).googleCode(info.email, binding!);
        if (!oneTime) return c.redirect(callbackTo({ error: 'user_not_found' }));
        // Never tokens in a URL (history, logs, a forged link): a 60-second code the page exchanges by POST.
        return c.redirect(callbackTo({ code: oneTime }));
      } catch {
        return c.redirect(callbackTo({ error: 'googleLoginFailed' }));
      }
    })
    .post(
      '/exchange',
      ok(loginResponseSchema, "The callback's one-time code exchanged for tokens by the browser that started the sign-in"),
      validate('json', googleExchangeSchema),
      async (c) => {
        const binding = getCookie(c, BINDING_COOKIE);
        deleteCookie(c, BINDING_COOKIE, { path: BINDING_PATH });
        const client = { ip: clientIp(c), userAgent: c.req.header('user-agent') ?? null };
        return c.json(await authService(c.get('deps')).exchangeGoogleCode(c.req.valid('json').code, binding, client));
      },
    );
}
