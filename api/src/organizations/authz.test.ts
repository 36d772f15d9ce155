/**
 * Authorization matrix for every organizations route: super admin, a global role holder, a role
 * holder scoped to a faculty organization (acting on it and on a descendant) and outside it, and a
 * user with no roles. Each case builds its own fixtures so writes don't interfere.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { organizationMembers } from '../db/tables/organizations';
import { allRows, runQuery } from '../db/engine';

const CODES = [
  'organizations.access',
  'organizations.create',
  'organizations.update',
  'organizations.delete',
  'organizations.add_member',
  'organizations.remove_member',
  'organizations.view_member_count',
  'users.update',
];

let t: TestApp;
let doan: number;
let dcsA: number;
let cdA: number;
let dcsB: number;
let cdB: number;
/** A second chi đoàn of A: whoever is added here sits inside the scoped holder's reach (issue 25 item 8). */
let cdA2: number;
let role: number;
let tokens: Record<'super' | 'global' | 'scoped' | 'none', string>;
let seq = 0;

beforeAll(async () => {
  t = await makeTestApp();
  doan = await t.createOrg('doan_truong', 'DT');
  dcsA = await t.createOrg('doan_co_so', 'A', doan);
  cdA = await t.createOrg('chi_doan', 'A1', dcsA);
  dcsB = await t.createOrg('doan_co_so', 'B', doan);
  cdB = await t.createOrg('chi_doan', 'B1', dcsB);
  cdA2 = await t.createOrg('chi_doan', 'A2', dcsA);
  role = await t.createRole('org_manager', CODES);
  const global = await t.createUser('GLOBAL', [{ roleId: role }]);
  const scoped = await t.createUser('SCOPED', [{ roleId: role, organizationId: dcsA }]);
  const none = await t.createUser('NONE');
  tokens = { super: t.adminToken, global: global.token, scoped: scoped.token, none: none.token };
});

/** Where the target sits: the scoped holder's own organization, a descendant of it, or another subtree. */
type Where = 'own' | 'child' | 'outside';
const orgAt = (w: Where) => (w === 'own' ? dcsA : w === 'child' ? cdA : cdB);
const freshUser = async () => (await t.createUser(`U${++seq}`)).id;
/** Only someone already within the caller's reach can be added (access/reach.ts). */
const reachableUser = async () => {
  const u = await freshUser();
  await runQuery(t.db.insert(organizationMembers).values({ organizationId: cdA2, userId: u }));
  return u;
};
const member = async (organizationId: number, userId: number) =>
  await runQuery(t.db.insert(organizationMembers).values({ organizationId, userId }));

interface Route {
  name: string;
  ok: number;
  /** Builds the fixtures for one call and returns [method, path, body]. */
  call: (w: Where) => Promise<[string, string, unknown?]>;
}

const ROUTES: Route[] = [
  { name: 'GET /:id', ok: 200, call: async (w) => ['GET', `/api/organizations/${orgAt(w)}`] },
  { name: 'GET /:id/children', ok: 200, call: async (w) => ['GET', `/api/organizations/${orgAt(w)}/children`] },
  { name: 'GET /:id/parent', ok: 200, call: async (w) => ['GET', `/api/organizations/${orgAt(w)}/parent`] },
  { name: 'GET /:id/breadcrumb', ok: 200, call: async (w) => ['GET', `/api/organizations/${orgAt(w)}/breadcrumb`] },
  { name: 'GET /:id/members', ok: 200, call: async (w) => ['GET', `/api/organizations/${orgAt(w)}/members`] },
  { name: 'PATCH /:id', ok: 200, call: async (w) => ['PATCH', `/api/organizations/${orgAt(w)}`, { description: `mô tả ${++seq}` }] },
  {
    name: 'DELETE /:id',
    ok: 200,
    // An empty chi đoàn under the target's faculty organization (own: directly under dcsA).
    call: async (w) => ['DELETE', `/api/organizations/${await t.createOrg('chi_doan', `DEL${++seq}`, w === 'outside' ? dcsB : dcsA)}`],
  },
  {
    name: 'POST /:id/members/:userId',
    ok: 201,
    call: async (w) => ['POST', `/api/organizations/${orgAt(w)}/members/${await reachableUser()}`, { role: 'member' }],
  },
  {
    name: 'POST /:id/members/:userId/with-parents',
    ok: 201,
    call: async (w) => ['POST', `/api/organizations/${orgAt(w)}/members/${await reachableUser()}/with-parents`],
  },
  {
    name: 'POST /:id/member/:code',
    ok: 201,
    call: async (w) => {
      await reachableUser();
      return ['POST', `/api/organizations/${orgAt(w)}/member/U${seq}`, {}];
    },
  },
  {
    name: 'DELETE /:id/members/:userId',
    ok: 200,
    call: async (w) => {
      const u = await freshUser();
      await member(orgAt(w), u);
      return ['DELETE', `/api/organizations/${orgAt(w)}/members/${u}`];
    },
  },
  {
    name: 'DELETE /:id/members/:userId/safely',
    ok: 200,
    call: async (w) => {
      const u = await freshUser();
      await member(orgAt(w), u);
      return ['DELETE', `/api/organizations/${orgAt(w)}/members/${u}/safely`];
    },
  },
  {
    name: 'DELETE /:id/members/bulk-remove',
    ok: 200,
    call: async (w) => {
      const u = await freshUser();
      await member(orgAt(w), u);
      return ['DELETE', `/api/organizations/${orgAt(w)}/members/bulk-remove`, { userIds: [u] }];
    },
  },
  {
    name: 'PUT /users/:id/organizations',
    ok: 200,
    // A member of the scoped holder's organization, so the user is within reach of every caller but 'none'.
    call: async (w) => {
      const u = await freshUser();
      await member(dcsA, u);
      return ['PUT', `/api/users/${u}/organizations`, { organizationIds: [orgAt(w)] }];
    },
  },
];

describe('organization routes by caller', () => {
  for (const r of ROUTES) {
    it(`${r.name}: super admin and global holder anywhere, scoped holder inside only, no roles refused`, async () => {
      const status = async (who: keyof typeof tokens, w: Where) => {
        const [method, path, body] = await r.call(w);
        return (await t.request(method, path, { token: tokens[who], body })).status;
      };
      expect(await status('super', 'outside')).toBe(r.ok);
      expect(await status('global', 'outside')).toBe(r.ok);
      expect(await status('scoped', 'own')).toBe(r.ok);
      expect(await status('scoped', 'child')).toBe(r.ok);
      expect(await status('scoped', 'outside')).toBe(403);
      expect(await status('none', 'child')).toBe(403);
      const [method, path, body] = await r.call('child');
      expect((await t.request(method, path, { body })).status).toBe(401);
    });
  }

  it('DELETE /:id: a holder scoped to an empty organization may delete that organization itself', async () => {
    const empty = await t.createOrg('doan_co_so', 'EMPTY', doan);
    const u = await t.createUser('SCOPED_EMPTY', [{ roleId: role, organizationId: empty }]);
    expect((await t.request('DELETE', `/api/organizations/${empty}`, { token: u.token })).status).toBe(200);
  });

  it("POST /: creating needs a global grant (system permission), even under the holder's own organization", async () => {
    const create = (who: keyof typeof tokens, parentId: number) =>
      t.request('POST', '/api/organizations', {
        token: tokens[who],
        body: { name: 'Chi đoàn mới', code: `NEW${++seq}`, type: 'chi_doan', parentId },
      });
    expect((await create('super', dcsB)).status).toBe(201);
    expect((await create('global', dcsB)).status).toBe(201);
    expect((await create('scoped', dcsA)).status).toBe(403);
    expect((await create('none', dcsA)).status).toBe(403);
    expect(
      (await t.request('POST', '/api/organizations', { body: { name: 'x', code: 'x', type: 'chi_doan', parentId: dcsA } })).status,
    ).toBe(401);
  });

  const LISTS = [
    '/api/organizations',
    '/api/organizations/accessible',
    '/api/organizations/tree',
    '/api/organizations/stats',
    '/api/organizations/type/chi_doan',
  ];

  it('lists: allowed to every holder of organizations.access, refused without roles or sign-in', async () => {
    for (const path of LISTS) {
      for (const who of ['super', 'global', 'scoped'] as const)
        expect((await t.request('GET', path, { token: tokens[who] })).status, `${who} ${path}`).toBe(200);
      expect((await t.request('GET', path, { token: tokens.none })).status, path).toBe(403);
      expect((await t.request('GET', path)).status, path).toBe(401);
    }
  });

  it('lists: the scoped holder sees only its subtree (plus organizations it belongs to)', async () => {
    const ids = (rows: { id: number }[]) => rows.map((o) => o.id);
    const scoped = { token: tokens.scoped };
    const list = await t.request('GET', '/api/organizations?limit=1000', scoped);
    expect(ids(list.body.data)).toContain(cdA);
    expect(ids(list.body.data)).not.toContain(cdB);
    expect(ids(list.body.data)).not.toContain(doan);
    const accessible = await t.request('GET', '/api/organizations/accessible', scoped);
    expect(ids(accessible.body)).toContain(dcsA);
    expect(ids(accessible.body)).not.toContain(dcsB);
    const tree = await t.request('GET', '/api/organizations/tree', scoped);
    expect(ids(tree.body)).toEqual([dcsA]);
    const byType = await t.request('GET', '/api/organizations/type/chi_doan', scoped);
    expect(ids(byType.body)).toContain(cdA);
    expect(ids(byType.body)).not.toContain(cdB);
    const stats = await t.request('GET', '/api/organizations/stats', scoped);
    expect(stats.body.doanStats.doanTruong).toBe(0);
    expect(stats.body.doanStats.doanCoSo).toBe(1);
    const everything = await t.request('GET', '/api/organizations/stats', { token: tokens.global });
    expect(everything.body.doanStats.doanTruong).toBe(1);
  });

  it('/accessible also lists organizations the caller belongs to, outside its subtree', async () => {
    const u = await t.createUser('SCOPED_MEMBER', [{ roleId: role, organizationId: dcsA }]);
    await member(cdB, u.id);
    const accessible = await t.request('GET', '/api/organizations/accessible', { token: u.token });
    const ids = accessible.body.map((o: { id: number }) => o.id);
    expect(ids).toEqual(expect.arrayContaining([dcsA, cdA, cdB]));
    expect(ids).not.toContain(dcsB);
    expect(ids).not.toContain(doan);
    expect(Object.keys(accessible.body[0]).sort()).toEqual(['code', 'description', 'id', 'name', 'parentId', 'type']);
  });

  it('a unit outside the organizations.access subtree is reached only while the caller belongs to it, from the write on', async () => {
    // Adds members in cdB, sees only dcsA's subtree: cdB is visible to it as its own unit, or not at all.
    const adder = await t.createRole('authz_adder_only', ['organizations.add_member']);
    const u = await t.createUser('SCOPED_JOINER', [
      { roleId: role, organizationId: dcsA },
      { roleId: adder, organizationId: cdB },
    ]);
    const already = await freshUser();
    await member(cdB, already);
    // Unseen: 404 before any rule; seen: the rule answers (already a member, 400).
    const add = async () =>
      (await t.request('POST', `/api/organizations/${cdB}/members/${already}`, { token: u.token, body: { role: 'member' } })).status;
    expect(await add()).toBe(404);
    await member(cdB, u.id);
    expect(await add()).toBe(400);
    await t.request('DELETE', `/api/organizations/${cdB}/members/${u.id}`, { token: tokens.super });
    expect(await add()).toBe(404);
  });

  it('GET /by-type-code: inside allowed, outside refused', async () => {
    const get = (who: keyof typeof tokens, code: string) =>
      t.request('GET', `/api/organizations/by-type-code/chi_doan/${code}`, { token: tokens[who] });
    expect((await get('super', 'B1')).status).toBe(200);
    expect((await get('global', 'B1')).status).toBe(200);
    expect((await get('scoped', 'A1')).status).toBe(200);
    expect((await get('scoped', 'B1')).status).toBe(404);
    expect((await get('none', 'A1')).status).toBe(403);
    expect((await t.request('GET', '/api/organizations/by-type-code/chi_doan/A1')).status).toBe(401);
  });

  it('PUT /users/:id/organizations: a scoped holder leaves memberships outside its subtree alone, and cannot reach users only outside it', async () => {
    const u = await freshUser();
    await member(cdB, u);
    const outsider = await t.request('PUT', `/api/users/${u}/organizations`, { token: tokens.scoped, body: { organizationIds: [cdA] } });
    expect(outsider.status).toBe(404);
    await member(dcsA, u);
    const res = await t.request('PUT', `/api/users/${u}/organizations`, { token: tokens.scoped, body: { organizationIds: [cdA] } });
    expect(res.status).toBe(200);
    const orgs = (await allRows(t.db.select().from(organizationMembers))).filter((m) => m.userId === u).map((m) => m.organizationId);
    // The Đoàn root above the scoped holder's faculty is not written (parents follow only up to its reach).
    expect(orgs.sort((a, b) => a - b)).toEqual([dcsA, cdA, cdB].sort((a, b) => a - b));
  });
});
