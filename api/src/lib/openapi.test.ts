/**
 * /api/docs is the contract other teams code against: every /api route of the app is in it, and
 * the error bodies it describes are the ones onError really sends.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';

let t: TestApp;
let doc: { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema: any }> }> }>> };

/** Hono's `/users/:id{[0-9]+}` → OpenAPI's `/users/{id}`. */
const openApiPath = (p: string) => p.replace(/^\/api/, '').replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');

beforeAll(async () => {
  t = await makeTestApp();
  const res = await t.request('GET', '/api/docs');
  expect(res.status).toBe(200);
  doc = res.body;
});

describe('GET /api/docs', () => {
  it('documents every /api route of the app', () => {
    const routes = t.app.routes
      .filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL' && !r.path.includes('*') && r.path !== '/api/docs')
      .map((r) => `${r.method} ${openApiPath(r.path)}`);
    const documented = new Set(Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)));
    expect(routes.length).toBeGreaterThan(100);
    expect([...new Set(routes)].filter((r) => !documented.has(r))).toEqual([]);
  });

  it('describes the 400 body as { message, issues } and other errors as { message }, as onError sends them', async () => {
    const login = doc.paths['/auth/login']!.post!.responses!;
    const bad = login['400']!.content!['application/json']!.schema;
    expect(Object.keys(bad.properties).sort()).toEqual(['issues', 'message']);
    expect(bad.properties.success).toBeUndefined();
    expect(Object.keys(login['401']!.content!['application/json']!.schema.properties)).toEqual(['message']);

    const res = await t.request('POST', '/api/auth/login', { body: { email: 'not-an-email' } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(['issues', 'message']);
  });
});
