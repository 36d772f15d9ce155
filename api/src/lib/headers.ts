import type { Context } from 'hono';
import type { IncomingMessage } from 'node:http';

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
