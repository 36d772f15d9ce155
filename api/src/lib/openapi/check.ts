/**
 * Checks an answer against the contract its route declares: the API tests' harness runs every 2xx
 * JSON body it receives through here, so a response schema in /api/docs that the API does not keep
 * fails a test. Also lists the mounted routes that declare none (openapi.test.ts, npm run lint).
 */
import type { RouterRoute } from 'hono/types';
import { contractOf, type ResponseSpec } from './contract';

interface Declared {
  method: string;
  path: string;
  spec: ResponseSpec;
  fixed: number;
  re: RegExp;
}

/** The /api routes a documented API must describe (the docs route itself and catch-alls aside). */
const documentable = (routes: RouterRoute[]) =>
  routes.filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL' && !r.path.includes('*') && r.path !== '/api/docs');

/** `METHOD /api/path` of each documentable route with no declared answer among its handlers. */
export function undocumented(routes: RouterRoute[]): string[] {
  const declared = new Set(routes.filter((r) => contractOf(r.handler)).map((r) => `${r.method} ${r.path}`));
  return [...new Set(documentable(routes).map((r) => `${r.method} ${r.path}`))].filter((key) => !declared.has(key));
}

const cache = new WeakMap<RouterRoute[], Declared[]>();

/** Each declaration as a matcher; a URL matching several patterns takes the one with most fixed text (`/users/available-roles` over `/users/:id`). */
function declarations(routes: RouterRoute[]): Declared[] {
  let found = cache.get(routes);
  if (found) return found;
  found = routes.flatMap((r) => {
    const spec = contractOf(r.handler);
    if (!spec) return [];
    const fixed = r.path.replace(/:\w+(\{[^}]*\})?/g, '').length;
    const source = r.path.replace(/[.]/g, '\\.').replace(/:\w+(\{([^}]*)\})?/g, (_m, _g, re: string | undefined) => `(?:${re ?? '[^/]+'})`);
    return [{ method: r.method, path: r.path, spec, fixed, re: new RegExp(`^${source}$`) }];
  });
  cache.set(routes, found);
  return found;
}

/** Why this answer breaks the contract, or null when it keeps it (or is not a JSON success). */
export function contractViolation(
  routes: RouterRoute[],
  method: string,
  url: string,
  status: number,
  body: unknown,
  contentType: string | null,
): string | null {
  if (status < 200 || status >= 300 || !contentType?.includes('application/json')) return null;
  const path = url.split('?')[0]!;
  const found = declarations(routes)
    .filter((m) => m.method === method.toUpperCase() && m.re.test(path))
    .sort((a, b) => b.fixed - a.fixed)[0];
  if (!found) return path.startsWith('/api/') && path !== '/api/docs' ? `${method} ${path}: no declared answer` : null;
  const key = `${found.method} ${found.path}`;
  if (!found.spec.schema) return `${key}: documented as ${found.spec.mediaType ?? 'a redirect'}, answered JSON`;
  const parsed = found.spec.schema.safeParse(body);
  if (parsed.success) return null;
  const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`);
  return `${key} (${status}) does not match its documented schema: ${issues.join('; ')}`;
}
