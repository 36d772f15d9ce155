import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';
import type { AppEnv } from './context';

/**
 * A request header (name in lower case). On @hono/node-server, c.req.header() first turns all of
 * Node's headers into a WHATWG Headers object, a fifth of a cached list request; Node's own
 * header object answers the same. Elsewhere (app.request in tests) it falls back to c.req.header.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming) return c.req.header(name);
  const v = incoming.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** The caller's address, for audit rows and throttles. */
export function clientIp(c: Context<AppEnv>): string | null {
  // X-Forwarded-For is client-controlled unless a trusted proxy sets it.
  const fwd = c.get('deps')?.env.TRUST_PROXY ? requestHeader(c, 'x-forwarded-for') : undefined;
  if (fwd) return fwd.split(',')[0]!.trim();
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? null;
}
