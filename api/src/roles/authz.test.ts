import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { insertUser } from './fixture';

/**
 * Who may call each roles route. The org-scoped holder has the same role as the global holder,
 * granted in faculty F1: "inside" acts in F1's chi đoàn C1, "outside" in faculty F2. permissions.*
 * are system codes, so from an organization role they count nowhere; granting needs
 * users.roles.manage in the organization granted in; users outside the caller's reach answer 404.
 */
type ActorName = 'superAdmin' | 'global' | 'orgInside' | 'orgOutside' | 'otherCodes' | 'noRoles';
interface Actor {
  name: ActorName;
  token: string;
  /** Where this caller acts (the organization granted in). */
  org: number;
}

const CODES = [
  'permissions.access',
  'permissions.view_details',
  'permissions.create',
  'permissions.update',
  'permissions.delete',
  'users.access',
  'users.view_details',
  'users.roles.manage',
  'dashboard.access',
];

let t: TestApp;
let actors: Actor[];
let orgs: { f1: number; c1: number; f2: number };
let grantee: number;
let n = 0;

/** A fresh role to change or delete, so every allowed caller has one. */
async function freshRole(): Promise<number> {
  const res = await t.request('POST', '/api/roles', {
    token: t.adminToken,
    body: { name: `authz_role_${++n}`, displayName: `Vai trò ${n}` },
  });
  return res.body.id;
}

/** A user the caller acts on: a member of C1 (inside F1), so "outside" differs only by the organization named. */
const target = () => insertUser(t, orgs.c1);

const SYSTEM: ActorName[] = ['superAdmin', 'global'];
const GRANTERS: ActorName[] = ['superAdmin', 'global', 'orgInside'];

const routes: { name: string; ok: number; allowed: ActorName[]; denied?: number; call: (a: Actor) => Promise<{ status: number }> }[] = [
  { name: 'GET /roles', ok: 200, allowed: SYSTEM, call: (a) => t.request('GET', `/api/roles?organizationId=${a.org}`, { token: a.token }) },
  {
    name: 'GET /roles/available-permissions',
    ok: 200,
    allowed: SYSTEM,
    call: (a) => t.request('GET', '/api/roles/available-permissions', { token: a.token }),
  },
  {
    name: 'GET /roles/:id',
    ok: 200,
    allowed: SYSTEM,
    call: async (a) => t.request('GET', `/api/roles/${await freshRole()}`, { token: a.token }),
  },
  {
    name: 'POST /roles',
    ok: 201,
    allowed: SYSTEM,
    call: (a) => t.request('POST', '/api/roles', { token: a.token, body: { name: `authz_new_${++n}`, displayName: 'Mới' } }),
  },
  {
    name: 'PUT /roles/:id',
    ok: 200,
    allowed: SYSTEM,
    call: async (a) => t.request('PUT', `/api/roles/${await freshRole()}`, { token: a.token, body: { displayName: 'Đổi tên' } }),
  },
  {
    name: 'DELETE /roles/:id',
    ok: 200,
    allowed: SYSTEM,
    call: async (a) => t.request('DELETE', `/api/roles/${await freshRole()}`, { token: a.token }),
  },
  {
    name: 'DELETE /roles',
    ok: 200,
    allowed: SYSTEM,
    call: async (a) => t.request('DELETE', '/api/roles', { token: a.token, body: { ids: [await freshRole(), await freshRole()] } }),
  },
  {
    name: 'POST /roles/seed-defaults',
    ok: 200,
    allowed: ['superAdmin'],
    call: (a) => t.request('POST', '/api/roles/seed-defaults', { token: a.token }),
  },
  {
    name: 'POST /roles/grant-roles',
    ok: 200,
    allowed: GRANTERS,
    call: async (a) =>
      t.request('POST', '/api/roles/grant-roles', {
        token: a.token,
        body: { userId: await target(), roleAssignments: [{ roleIds: [grantee], organizationIds: [a.org], isGlobal: false }] },
      }),
  },
  {
    name: 'POST /users/:id/roles',
    ok: 200,
    allowed: GRANTERS,
    call: async (a) =>
      t.request('POST', `/api/users/${await target()}/roles`, {
        token: a.token,
        body: { roleAssignments: [{ roleIds: [grantee], organizationIds: [a.org] }] },
      }),
  },
  {
    name: 'POST /users/:id/assign-role',
    ok: 201,
    allowed: GRANTERS,
    call: async (a) =>
      t.request('POST', `/api/users/${await target()}/assign-role`, { token: a.token, body: { roleId: grantee, organizationId: a.org } }),
  },
  {
    name: 'GET /users/:id/roles',
    ok: 200,
    allowed: GRANTERS,
    // The outside caller cannot reach a member of F2 at all: 404, like an unknown user.
    denied: 404,
    call: async (a) =>
      t.request('GET', `/api/users/${a.name === 'orgOutside' ? await insertUser(t, orgs.f2) : await target()}/roles`, { token: a.token }),
  },
  {
    name: 'GET /users/available-roles',
    ok: 200,
    allowed: ['superAdmin', 'global', 'orgInside', 'orgOutside'],
    call: (a) => t.request('GET', '/api/users/available-roles', { token: a.token }),
  },
];

beforeAll(async () => {
  t = await makeTestApp();
  const root = await t.createOrg('doan_truong', 'AZR-ROOT');
  const f1 = await t.createOrg('doan_co_so', 'AZR-F1', root);
  const c1 = await t.createOrg('chi_doan', 'AZR-F1-C1', f1);
  const f2 = await t.createOrg('doan_co_so', 'AZR-F2', root);
  orgs = { f1, c1, f2 };
  const full = await t.createRole('authz_full', CODES);
  const other = await t.createRole('authz_other', ['users.access', 'organizations.access', 'dashboard.access']);
  grantee = await t.createRole('authz_grantee', ['dashboard.access']);
  const global = await t.createUser('AZRG', [{ roleId: full }]);
  const scoped = await t.createUser('AZRO', [{ roleId: full, organizationId: f1 }]);
  const otherCodes = await t.createUser('AZRX', [{ roleId: other }]);
  const noRoles = await t.createUser('AZRN');
  actors = [
    { name: 'superAdmin', token: t.adminToken, org: c1 },
    { name: 'global', token: global.token, org: c1 },
    { name: 'orgInside', token: scoped.token, org: c1 },
    { name: 'orgOutside', token: scoped.token, org: f2 },
    { name: 'otherCodes', token: otherCodes.token, org: c1 },
    { name: 'noRoles', token: noRoles.token, org: c1 },
  ];
});

describe('roles authorization matrix', () => {
  for (const r of routes) {
    it(`${r.name}: allowed for ${r.allowed.join(', ')}; refused for the others`, async () => {
      for (const a of actors) {
        const res = await r.call(a);
        const refused = a.name === 'orgOutside' && r.denied ? r.denied : 403;
        expect({ actor: a.name, status: res.status }).toEqual({ actor: a.name, status: r.allowed.includes(a.name) ? r.ok : refused });
      }
    });

    it(`${r.name}: 401 without a token`, async () => {
      const res = await r.call({ name: 'noRoles', token: '', org: orgs.c1 });
      expect(res.status).toBe(401);
    });
  }

  it('checks permission before the id: a forbidden caller gets 403 even for an unknown role or user', async () => {
    const scoped = actors.find((a) => a.name === 'orgInside')!;
    const none = actors.find((a) => a.name === 'noRoles')!;
    expect((await t.request('DELETE', '/api/roles/999999', { token: scoped.token })).status).toBe(403);
    expect((await t.request('GET', '/api/users/999999/roles', { token: none.token })).status).toBe(403);
    expect((await t.request('POST', '/api/users/999999/assign-role', { token: none.token, body: { roleId: grantee } })).status).toBe(403);
  });

  it('a global holder of users.roles.manage may grant globally; an org-scoped one may not', async () => {
    const globalActor = actors.find((a) => a.name === 'global')!;
    const scoped = actors.find((a) => a.name === 'orgInside')!;
    const body = { roleAssignments: [{ roleIds: [grantee], isGlobal: true }] };
    expect((await t.request('POST', `/api/users/${await target()}/roles`, { token: globalActor.token, body })).status).toBe(200);
    expect((await t.request('POST', `/api/users/${await target()}/roles`, { token: scoped.token, body })).status).toBe(403);
  });
});
