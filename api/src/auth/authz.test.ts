/**
 * Authorization matrix for the auth routes: every one of them is self-service, so any signed-in
 * user may call it whatever their roles (never 403), and nobody else may (401). Sign-in and
 * refresh are public.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';

let t: TestApp;
let callers: Record<string, { token: string; refreshToken: string; email: string }>;
let orgs: { root: number; faculty: number; other: number };

beforeAll(async () => {
  t = await makeTestApp();
  const root = await t.createOrg('doan_truong', 'DT');
  const faculty = await t.createOrg('doan_co_so', 'DCS', root);
  const other = await t.createOrg('doan_co_so', 'DCS2', root);
  orgs = { root, faculty, other };
  const staff = await t.createRole('authz_staff', ['users.access', 'dashboard.access']);
  const admin = await t.login('admin@doanhoi.local', 'admin123');
  callers = {
    superAdmin: { token: admin.accessToken, refreshToken: admin.refreshToken, email: 'admin@doanhoi.local' },
    globalRole: await t.createUser('AZ_GLOBAL', [{ roleId: staff }]),
    orgRole: await t.createUser('AZ_ORG', [{ roleId: staff, organizationId: faculty }]),
    noRoles: await t.createUser('AZ_NONE'),
  };
});

type Route = { name: string; method: string; path: () => string; body?: unknown; ok: number };
const routes: Route[] = [
  { name: 'profile', method: 'GET', path: () => '/api/auth/profile', ok: 200 },
  { name: 'me/permissions', method: 'GET', path: () => '/api/auth/me/permissions', ok: 200 },
  // Inside and outside the org role's organization: asking is always allowed.
  { name: 'me/permissions in the role org', method: 'GET', path: () => `/api/auth/me/permissions?organizationId=${orgs.faculty}`, ok: 200 },
  { name: 'me/permissions outside it', method: 'GET', path: () => `/api/auth/me/permissions?organizationId=${orgs.other}`, ok: 200 },
  // A wrong current password: 400 shows the route let the caller through.
  {
    name: 'change-password',
    method: 'POST',
    path: () => '/api/auth/change-password',
    body: { currentPassword: 'not-it', newPassword: 'whatever1' },
    ok: 400,
  },
];

describe('auth routes — authorization matrix', () => {
  for (const r of routes) {
    it(`${r.method} ${r.name}: any signed-in caller, never anonymous`, async () => {
      for (const [who, c] of Object.entries(callers)) {
        const res = await t.request(r.method, r.path(), { token: c.token, body: r.body });
        expect(res.status, who).toBe(r.ok);
      }
      expect((await t.request(r.method, r.path(), { body: r.body })).status).toBe(401);
    });
  }

  it('each caller sees only their own profile', async () => {
    for (const c of Object.values(callers)) {
      const res = await t.request('GET', '/api/auth/profile', { token: c.token });
      expect(res.body.email).toBe(c.email);
    }
  });

  it('refresh is public: it needs only the refresh token', async () => {
    for (const [who, c] of Object.entries(callers)) {
      const res = await t.request('POST', '/api/auth/refresh', { body: { refreshToken: c.refreshToken } });
      expect(res.status, who).toBe(200);
      c.token = res.body.accessToken;
    }
  });

  it('POST /api/auth/logout: any signed-in caller, never anonymous', async () => {
    expect((await t.request('POST', '/api/auth/logout')).status).toBe(401);
    for (const [who, c] of Object.entries(callers)) {
      expect((await t.request('POST', '/api/auth/logout', { token: c.token })).status, who).toBe(200);
    }
  });
});
