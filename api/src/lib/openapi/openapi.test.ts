/**
 * /api/docs is the contract other teams code against: every /api route of the app is in it, and
 * the error bodies it describes are the ones onError really sends.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../test/harness';
import { undocumented } from './check';
import { openApiPath } from './index';

let t: TestApp;
let doc: { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema: any }> }> }>> };

/** The app's /api routes as `METHOD /path` in OpenAPI's spelling (below /api). */
const mounted = () =>
  t.app.routes
    .filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL' && !r.path.includes('*') && r.path !== '/api/docs')
    .map((r) => `${r.method} ${openApiPath(r.path.replace(/^\/api/, ''))}`);

beforeAll(async () => {
  t = await makeTestApp();
  const res = await t.request('GET', '/api/docs');
  expect(res.status).toBe(200);
  doc = res.body;
});

describe('GET /api/docs', () => {
  it('documents every /api route of the app', () => {
    const routes = mounted();
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)),
    );
    expect(routes.length).toBeGreaterThan(100);
    expect([...new Set(routes)].filter((r) => !documented.has(r))).toEqual([]);
  });

  it('gives every route its success answer, declared on the route itself', () => {
    expect(undocumented(t.app.routes)).toEqual([]);
    const missing = mounted().filter((key) => {
      const [method, path] = key.split(' ') as [string, string];
      const ok = Object.entries(doc.paths[path]?.[method.toLowerCase()]?.responses ?? {}).find(([status]) => /^[23]\d\d$/.test(status));
      return !ok;
    });
    expect(missing).toEqual([]);
  });

  it('describes success bodies with the shared schemas, the tree with its recursion resolvable', () => {
    const users = doc.paths['/users']!.get!.responses!['200']!.content!['application/json']!.schema;
    expect(Object.keys(users.properties).sort()).toEqual(['limit', 'page', 'total', 'totalCapped', 'totalPages', 'users']);
    expect(users.properties.users.items.properties.email).toEqual({ type: 'string' });
    const tree = doc.paths['/organizations/tree']!.get!.responses!['200']!.content!['application/json']!.schema;
    const ref: string = tree.items.$ref;
    expect(ref).toMatch(/^#\/components\/schemas\//);
    expect((doc as any).components.schemas[ref.split('/').pop()!].properties.children.items.$ref).toBe(ref);
    const template = doc.paths['/users/template']!.get!.responses!['200']!.content!;
    expect(Object.keys(template)).toEqual(['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet']);
  });

  it('describes the 400 body as { message, issues, errors } and other errors as { message }, as onError sends them', async () => {
    const login = doc.paths['/auth/login']!.post!.responses!;
    const bad = login['400']!.content!['application/json']!.schema;
    // errors: the issues per field, for forms (issue 26 item 7).
    expect(Object.keys(bad.properties).sort()).toEqual(['errors', 'issues', 'message']);
    expect(bad.properties.success).toBeUndefined();
    expect(Object.keys(login['401']!.content!['application/json']!.schema.properties)).toEqual(['message']);

    const res = await t.request('POST', '/api/auth/login', { body: { email: 'not-an-email' } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(['errors', 'issues', 'message']);
  });
});
