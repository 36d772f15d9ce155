/**
 * Real answers against /api/docs: for a sample of routes (each domain, a success and an error) the
 * status is one the document lists for the route, and the body fits the JSON Schema published for
 * that status (read back from the document, not from the zod schema it was made of), or its media
 * type is the documented one for a file.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeTestApp, type TestApp } from '../../test/harness';
import { openApiPath } from './index';

type Responses = Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
let t: TestApp;
let token: string;
let orgId: number;
let doc: { paths: Record<string, Record<string, { responses: Responses }>>; components: { schemas?: Record<string, unknown> } };

beforeAll(async () => {
  t = await makeTestApp();
  token = (await t.login('admin@doanhoi.local', 'admin123')).accessToken;
  orgId = await t.createOrg('doan_truong', 'DT-DOCS');
  doc = (await t.request('GET', '/api/docs')).body;
});

/** The published schema as zod, its `#/components/schemas/…` references resolved within the document. */
function documented(schema: Record<string, unknown>) {
  const relink = (v: unknown) => JSON.parse(JSON.stringify(v).replaceAll('"#/components/schemas/', '"#/$defs/'));
  return z.fromJSONSchema({ ...relink(schema), $defs: relink(doc.components.schemas ?? {}) });
}

const uuid = '00000000-0000-4000-8000-000000000000';
const year = new Date().getFullYear();
const samples: { route: string; url: () => string; status: number; body?: unknown; anonymous?: boolean }[] = [
  { route: 'GET /auth/profile', url: () => '/api/auth/profile', status: 200 },
  { route: 'POST /auth/login', url: () => '/api/auth/login', status: 400, body: { email: 'not-an-email' }, anonymous: true },
  { route: 'GET /users', url: () => '/api/users', status: 200 },
  { route: 'GET /users/:id{[0-9]+}', url: () => '/api/users/999999', status: 404 },
  { route: 'GET /roles', url: () => '/api/roles', status: 200 },
  { route: 'GET /roles/:id', url: () => '/api/roles/999999', status: 404 },
  { route: 'GET /organizations/tree', url: () => '/api/organizations/tree', status: 200 },
  { route: 'GET /organizations/:id', url: () => '/api/organizations/999999', status: 404 },
  { route: 'GET /departments', url: () => '/api/departments', status: 200 },
  { route: 'POST /departments', url: () => '/api/departments', status: 400, body: {} },
  { route: 'GET /classes', url: () => '/api/classes', status: 200 },
  { route: 'GET /classes/:id', url: () => '/api/classes/999999', status: 404 },
  { route: 'GET /audit-logs', url: () => '/api/audit-logs', status: 200 },
  { route: 'GET /audit-logs', url: () => '/api/audit-logs', status: 401, anonymous: true },
  { route: 'GET /transfers', url: () => '/api/transfers', status: 200 },
  { route: 'GET /transfers/:id', url: () => '/api/transfers/999999', status: 404 },
  {
    route: 'GET /reports/membership',
    url: () => `/api/reports/membership?organizationId=${orgId}&from=${year}-01-01&to=${year}-12-31`,
    status: 200,
  },
  { route: 'GET /reports/membership', url: () => '/api/reports/membership', status: 400 },
  { route: 'GET /dashboard/members', url: () => '/api/dashboard/members', status: 200 },
  { route: 'GET /dashboard/weekly', url: () => '/api/dashboard/weekly', status: 400 },
  { route: 'GET /reminders/outbox', url: () => '/api/reminders/outbox', status: 200 },
  { route: 'GET /payment-campaigns/:id/reminders', url: () => '/api/payment-campaigns/999999/reminders', status: 404 },
  { route: 'GET /dues/shares', url: () => '/api/dues/shares', status: 200 },
  { route: 'GET /dues/rates', url: () => '/api/dues/rates', status: 400 },
  { route: 'GET /remittances/campaigns', url: () => `/api/remittances/campaigns?organizationId=${orgId}`, status: 200 },
  { route: 'GET /payment-campaigns/:id/remittance', url: () => '/api/payment-campaigns/999999/remittance', status: 404 },
  { route: 'GET /payment-campaigns', url: () => '/api/payment-campaigns', status: 200 },
  { route: 'GET /payment-campaigns/:id', url: () => '/api/payment-campaigns/999999', status: 404 },
  { route: 'GET /payment/assignments/my-assignments', url: () => '/api/payment/assignments/my-assignments', status: 200 },
  { route: 'GET /users/template', url: () => '/api/users/template', status: 200 },
  { route: 'GET /users/import/:sessionId/status', url: () => `/api/users/import/${uuid}/status`, status: 404 },
  { route: 'POST /export/users', url: () => '/api/export/users', status: 200, body: { fields: ['code'] } },
  { route: 'POST /export/users', url: () => '/api/export/users', status: 401, body: {}, anonymous: true },
];

describe('real answers keep the documented contract', () => {
  it.each(samples)('$route → $status', async ({ route, url, status, body, anonymous }) => {
    const [method, path] = route.split(' ') as [string, string];
    const res = await t.request(method, url(), { token: anonymous ? undefined : token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    const responses = doc.paths[openApiPath(path)]?.[method.toLowerCase()]?.responses;
    const answer = responses?.[String(status)];
    expect(answer, `${route} documents no ${status}`).toBeDefined();
    const type = res.headers.get('content-type')?.split(';')[0] ?? '';
    const content = answer!.content ?? {};
    expect(Object.keys(content)).toContain(type);
    if (type !== 'application/json') return;
    const parsed = documented(content[type]!.schema).safeParse(res.body);
    expect(parsed.success ? [] : parsed.error.issues.slice(0, 5)).toEqual([]);
  });
});

it('the check has teeth: a body off the documented schema fails it', () => {
  const users = documented(doc.paths['/users']!.get!.responses['200']!.content!['application/json']!.schema);
  const tree = documented(doc.paths['/organizations/tree']!.get!.responses['200']!.content!['application/json']!.schema);
  expect(users.safeParse({ users: [], page: 1, limit: 10, total: 0, totalPages: 0 }).success).toBe(true);
  expect(users.safeParse({ users: [{ id: 'x' }], page: 1, limit: 10, total: 0, totalPages: 0 }).success).toBe(false);
  expect(tree.safeParse([{ children: [{ id: 1 }] }]).success).toBe(false);
});
