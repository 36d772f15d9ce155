/**
 * JSON answers built with every header an answer carries (their own, the request id, the security
 * headers) at once. Hono keeps a response's headers in an undici Headers as soon as there are two,
 * the security headers middleware then sets a dozen more one by one after the handler, and
 * @hono/node-server turns them back into a plain object, sorted: about a tenth of a cached API
 * request's CPU profile and of its garbage (docs/benchmark.md). A JSON answer built here holds a
 * plain object with every header from the start, which @hono/node-server writes as it is; the
 * security headers middleware leaves it alone. Every other answer (files, pages, redirects) gets
 * them as before. hono/request-id still sets its header before the handler: Hono then builds every
 * other answer on a Headers it owns, so headers set after the handler stay on it however it is read
 * later (a HEAD answer is copied from its GET's initial headers by @hono/node-server's Response).
 */
import type { Context } from 'hono';
import { markComplete } from './complete-response';
import { APP_SECURITY_HEADERS, isSandboxPath } from './security-headers';

const REQUEST_ID = 'x-request-id';

/** Requests whose answer got a header or a status through Hono (c.header, c.status, a cookie): Hono builds it. */
const viaHono = new WeakSet<Context>();

/** Notes a header or status set through Hono from now on (an API request's middleware calls it first). */
export function watchHono(c: Context): void {
  const { header, status } = c;
  c.header = ((...args: Parameters<typeof header>) => {
    viaHono.add(c);
    return header(...args);
  }) as typeof header;
  c.status = ((code: Parameters<typeof status>[0]) => {
    viaHono.add(c);
    return status(code);
  }) as typeof status;
}

/**
 * A JSON answer with its own headers, the request id and the app's security headers in one plain
 * object; undefined where Hono must build it: a header or status was set through Hono, or the path
 * is the payOS sandbox's, whose pages have other security headers.
 */
export function completeJson(c: Context, body: string | Uint8Array, status: number, headers: Record<string, string>): Response | undefined {
  if (viaHono.has(c) || isSandboxPath(c.req.path)) return undefined;
  return markComplete(
    new Response(body as ConstructorParameters<typeof Response>[0], {
      status,
      headers: { ...headers, ...APP_SECURITY_HEADERS, [REQUEST_ID]: c.get('requestId') as string },
    }),
  );
}
