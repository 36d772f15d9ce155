/**
 * Checks an answer against the contract: the API tests' harness runs every 2xx JSON body it
 * receives through here, so a response schema in /api/docs that the API does not keep fails a test.
 */
import { contract } from './index';

/** Each contract key as a matcher; a URL matching several patterns takes the one with most fixed text (`/users/available-roles` over `/users/:id`). */
const matchers = Object.entries(contract).map(([key, spec]) => {
  const [method, path] = key.split(' ') as [string, string];
  const fixed = path.replace(/:\w+(\{[^}]*\})?/g, '').length;
  const source = path.replace(/[.]/g, '\\.').replace(/:\w+(\{([^}]*)\})?/g, (_m, _g, re: string | undefined) => `(?:${re ?? '[^/]+'})`);
  return { method, key, spec, fixed, re: new RegExp(`^/api${source}$`) };
});

/** Why this answer breaks the contract, or null when it keeps it (or is not a JSON success). */
export function contractViolation(method: string, url: string, status: number, body: unknown, contentType: string | null): string | null {
  if (status < 200 || status >= 300 || !contentType?.includes('application/json')) return null;
  const path = url.split('?')[0]!;
  const found = matchers.filter((m) => m.method === method.toUpperCase() && m.re.test(path)).sort((a, b) => b.fixed - a.fixed)[0];
  if (!found) return path.startsWith('/api/') && path !== '/api/docs' ? `${method} ${path}: no contract entry` : null;
  if (!found.spec.schema) return `${found.key}: documented as ${found.spec.mediaType ?? 'a redirect'}, answered JSON`;
  const parsed = found.spec.schema.safeParse(body);
  if (parsed.success) return null;
  const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`);
  return `${found.key} (${status}) does not match its documented schema: ${issues.join('; ')}`;
}
