import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { insertUser, newUserBody, scopedWorld, USER_CODES } from './fixture';
import { runQuery } from '../db/engine';

/**
 * Who may call each users route. The org-scoped officer holds every users code in faculty F1:
 * "inside" acts on F1's chi đoàn, "outside" on faculty F2. Naming an outside organization is 403;
 * a user outside the caller's reach answers 404, exactly like an unknown one (no existence leak).
 */
type ActorName = 'superAdmin' | 'global' | 'orgInside' | 'orgOutside' | 'otherCodes' | 'noRoles';
interface Actor {
  name: ActorName;
  token: string;
  /** The organization this caller acts in (where targets live and new users go). */
  org: number | null;
}

let t: TestApp;
let actors: Actor[];
let fallbackOrg: number;

/** A fresh user for each call in the actor's organization, so every allowed caller has someone to change. */
const target = (a: Actor) => insertUser(t, {}, a.org ?? fallbackOrg);

const ALL_ALLOWED: ActorName[] = ['superAdmin', 'global', 'orgInside'];
const routes: { name: string; ok: number; outside: number; call: (a: Actor) => Promise<{ status: number }> }[] = [
  { name: 'GET /users', ok: 200, outside: 200, call: (a) => t.request('GET', '/api/users', { token: a.token }) },
  {
    name: 'GET /users?organizationId',
    ok: 200,
    outside: 403,
    call: (a) => t.request('GET', `/api/users?organizationId=${a.org ?? fallbackOrg}`, { token: a.token }),
  },
  {
    name: 'GET /users/:id',
    ok: 200,
    outside: 404,
    call: async (a) => t.request('GET', `/api/users/${await target(a)}`, { token: a.token }),
  },
  {
    name: 'POST /users',
    ok: 201,
    outside: 403,
    call: (a) => t.request('POST', '/api/users', { token: a.token, body: newUserBody({ organizationId: a.org ?? fallbackOrg }) }),
  },
  {
    name: 'PATCH /users/:id',
    ok: 200,
    outside: 404,
    call: async (a) => t.request('PATCH', `/api/users/${await target(a)}`, { token: a.token, body: { givenName: 'Đổi' } }),
  },
  {
    name: 'DELETE /users/:id',
    ok: 200,
    outside: 404,
    call: async (a) => t.request('DELETE', `/api/users/${await target(a)}`, { token: a.token }),
  },
  {
    name: 'DELETE /users/bulk-delete',
    ok: 200,
    outside: 404,
    call: async (a) => t.request('DELETE', '/api/users/bulk-delete', { token: a.token, body: { ids: [await target(a), await target(a)] } }),
  },
];

beforeAll(async () => {
  t = await makeTestApp();
  const w = await scopedWorld(t, 'AZ');
  fallbackOrg = w.c1;
  const other = await t.createRole('az_other', ['departments.access', 'organizations.access']);
  const otherCodes = await t.createUser('AZX', [{ roleId: other }]);
  actors = [
    { name: 'superAdmin', token: t.adminToken, org: null },
    { name: 'global', token: w.globalAdmin.token, org: null },
    { name: 'orgInside', token: w.orgAdmin.token, org: w.c1 },
    { name: 'orgOutside', token: w.orgAdmin.token, org: w.f2 },
    { name: 'otherCodes', token: otherCodes.token, org: null },
    { name: 'noRoles', token: w.noRoles.token, org: null },
  ];
});

describe('users authorization matrix', () => {
  for (const r of routes) {
    const expected = (a: ActorName) => (ALL_ALLOWED.includes(a) ? r.ok : a === 'orgOutside' ? r.outside : 403);
    it(`${r.name}: super admin, global and org-scoped (inside) allowed; outside ${r.outside}; others 403`, async () => {
      for (const a of actors) {
        const res = await r.call(a);
        expect({ actor: a.name, status: res.status }).toEqual({ actor: a.name, status: expected(a.name) });
      }
    });

    it(`${r.name}: 401 without a token`, async () => {
      expect((await r.call({ name: 'noRoles', token: '', org: null })).status).toBe(401);
    });
  }

  it('each route needs its own code: a global holder of users.access only can list, nothing else', async () => {
    const role = await t.createRole('az_access_only', ['users.access']);
    const u = await t.createUser('AZACC', [{ roleId: role }]);
    const id = await insertUser(t);
    expect((await t.request('GET', '/api/users', { token: u.token })).status).toBe(200);
    expect((await t.request('GET', `/api/users/${id}`, { token: u.token })).status).toBe(403);
    expect((await t.request('POST', '/api/users', { token: u.token, body: newUserBody() })).status).toBe(403);
    expect((await t.request('PATCH', `/api/users/${id}`, { token: u.token, body: { givenName: 'X' } })).status).toBe(403);
    expect((await t.request('DELETE', `/api/users/${id}`, { token: u.token })).status).toBe(403);
    expect((await t.request('DELETE', '/api/users/bulk-delete', { token: u.token, body: { ids: [id] } })).status).toBe(403);
  });

  it('an inactive role link grants nothing', async () => {
    const role = await t.createRole('az_inactive', USER_CODES);
    const u = await t.createUser('AZINA', [{ roleId: role }]);
    const { userRoles } = await import('../db/tables/roles');
    const { eq } = await import('drizzle-orm');
    await runQuery(t.db.update(userRoles).set({ isActive: false }).where(eq(userRoles.userId, u.id)));
    expect((await t.request('GET', '/api/users', { token: u.token })).status).toBe(403);
  });

  it('the same list URL answers each caller with their own scope, in either order', async () => {
    const [global, inside] = [actors.find((a) => a.name === 'global')!, actors.find((a) => a.name === 'orgInside')!];
    const list = async (token: string) =>
      (await t.request('GET', '/api/users?limit=1000', { token })).body as { total: number; users: { id: number }[] };
    const first = await list(global.token);
    const scoped = await list(inside.token);
    const again = await list(global.token);
    expect(scoped.total).toBeLessThan(first.total);
    expect(scoped.users.length).toBe(scoped.total);
    expect(again).toEqual(first);
    expect((await list(inside.token)).users.map((u) => u.id)).toEqual(scoped.users.map((u) => u.id));
  });

  it('checks the permission before the id: a caller without the code gets 403 even for an unknown user', async () => {
    const noRoles = actors.find((a) => a.name === 'noRoles')!;
    expect((await t.request('GET', '/api/users/999999', { token: noRoles.token })).status).toBe(403);
    expect((await t.request('DELETE', '/api/users/999999', { token: noRoles.token })).status).toBe(403);
  });
});
