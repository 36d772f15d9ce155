import type { Context } from 'hono';
import type { Env } from '../env';

/** Where browsers reach this server: PUBLIC_URL when configured, else the request's own origin. */
export function publicOrigin(env: Env, c: Context): string {
  return (env.PUBLIC_URL ?? new URL(c.req.url).origin).replace(/\/+$/, '');
}

/** payOS API base: PAYOS_BASE_URL, or this server's own sandbox when it is unset or 'sandbox'. */
export function payosBaseUrl(env: Env, origin: string): string {
  const v = env.PAYOS_BASE_URL.trim();
  return !v || v === 'sandbox' ? `${origin}/sandbox/payos` : v.replace(/\/+$/, '');
}
