/**
 * Where payOS traffic goes and comes back. Nothing here reads a request header: a member could
 * otherwise send the campaign's client id and API key to a host of their choosing (issue 10.3).
 */
import type { Env } from '../env';
import { isPublicOrigin } from '../lib/public-origin';

const trim = (url: string) => url.replace(/\/+$/, '');

/** Where browsers reach this server (payOS return URLs, the webhook URL): PUBLIC_URL, else localhost on PORT. */
export function publicOrigin(env: Pick<Env, 'PUBLIC_URL' | 'PORT'>): string {
  return env.PUBLIC_URL ? trim(env.PUBLIC_URL) : `http://localhost:${env.PORT}`;
}

/** Where this server reaches itself (its own sandbox): PUBLIC_URL, else the listening address. */
export function selfOrigin(env: Pick<Env, 'PUBLIC_URL' | 'PORT' | 'HOST'>, port = env.PORT): string {
  if (env.PUBLIC_URL) return trim(env.PUBLIC_URL);
  const host = env.HOST === '0.0.0.0' || env.HOST === '::' || !env.HOST ? '127.0.0.1' : env.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export function isSandbox(env: Pick<Env, 'PAYOS_BASE_URL'>): boolean {
  const v = env.PAYOS_BASE_URL.trim();
  return !v || v === 'sandbox';
}

/** payOS API base: PAYOS_BASE_URL, or this server's own sandbox. */
export function payosBaseUrl(env: Env, port?: number): string {
  return isSandbox(env) ? `${selfOrigin(env, port)}/sandbox/payos` : trim(env.PAYOS_BASE_URL.trim());
}

export function webhookUrl(env: Env): string {
  return `${publicOrigin(env)}/api/payment/webhook/payos`;
}

/**
 * Whether sandbox money may settle a fee. Only on a local or private deployment (the demo): on a
 * public PUBLIC_URL (allowed only with PAYOS_SANDBOX_PUBLIC=true) sandbox payments stay test
 * records and a fee never becomes PAID through them (issue 10.2).
 */
export function sandboxSettlesFees(env: Env): boolean {
  return isSandbox(env) && !(env.PUBLIC_URL && isPublicOrigin(env.PUBLIC_URL));
}

/** The start-up line about payments. */
export function payosBanner(env: Env): string {
  if (!isSandbox(env)) return `  payOS:    ${trim(env.PAYOS_BASE_URL.trim())} (real payments); webhook URL ${webhookUrl(env)}`;
  return sandboxSettlesFees(env)
    ? '  payOS:    SANDBOX (PAYOS_BASE_URL=sandbox): TEST payments only, no real money; set PAYOS_BASE_URL for real payments'
    : '  payOS:    SANDBOX on a public URL (PAYOS_SANDBOX_PUBLIC=true): test payments are recorded but never settle a fee';
}
