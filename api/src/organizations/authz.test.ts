/** Authorization matrix: super admin, global holder, org-scoped inside (own org / descendant) and outside, no roles. */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { organizationMembers } from './schema';

const CODES = ['organizations.access', 'organizations.update', 'organizations.delete', 'organizations.add_member', 'organizations.remove_member', 'organizations.view_member_count', 'users.update'];

let t: TestApp;
let ids: Record<string, number>;
let actors: Record<string, string>;

beforeAll(async () => {
  t = await makeTestApp();
  const doan = t.createOrg('doan_truong', 'DT');
  const dcsA = t.createOrg('doan_co_so', 'A', doan);
  const cdA = t.createOrg('chi_doan', 'A1', dcsA);
  const dcsB = t.createOrg('doan_co_so', 'B', doan);
  const cdB = t.createOrg('chi_doan', 'B1', dcsB);
  ids = { doan, dcsA, cdA, dcsB, cdB };
  const role = t.createRole('org_manager', CODES);
  const global = await t.createUser('GLOBAL', [{ roleId: role }]);
  const scoped = await t.createUser('SCOPED', [{ roleId: role, organizationId: dcsA }]);
  const none = await t.createUser('NONE');
  actors = { super: t.adminToken, global: global.token, scoped: scoped.token, none: none.token };
});

type Actor = 'super' | 'global' | 'scoped' | 'none';
const expectStatus = async (actor: Actor, method: string, path: string, body?: unknown) => (await t.request(method, path, { token: actors[actor], body })).status;

describe('organization routes by caller', () => {
  it('reads: inside the scoped subtree allowed, outside refused', async () => {
    for (const a of ['super', 'global'] as Actor[]) expect(await expectStatus(a, 'GET', `/api/organizations/${ids.cdB}`)).toBe(200);
    expect(await expectStatus('scoped', 'GET', `/api/organizations/${ids.dcsA}`)).toBe(200);
    expect(await expectStatus('scoped', 'GET', `/api/organizations/${ids.cdA}/members`)).toBe(200);
    expect(await expectStatus('scoped', 'GET', `/api/organizations/${ids.cdB}`)).toBe(403);
    expect(await expectStatus('scoped', 'GET', `/api/organizations/${ids.doan}`)).toBe(403);
    expect(await expectStatus('none', 'GET', `/api/organizations/${ids.cdA}`)).toBe(403);
    expect(await expectStatus('none', 'GET', '/api/organizations/tree')).toBe(403);
    expect((await t.request('GET', '/api/organizations/tree')).status).toBe(401);
  });

  it('lists are scoped: the faculty admin sees only their subtree', async () => {
    const tree = await t.request('GET', '/api/organizations/tree', { token: actors.scoped });
    expect(tree.body.map((n: { id: number }) => n.id)).toEqual([ids.dcsA]);
    const accessible = await t.request('GET', '/api/organizations/accessible', { token: actors.scoped });
    expect(accessible.body.map((o: { id: number }) => o.id).sort()).toEqual([ids.dcsA, ids.cdA].sort());
    const none = await t.request('GET', '/api/organizations/accessible', { token: actors.none });
    expect(none.body).toEqual([]);
  });

  it('writes: update and member changes only inside the subtree; create needs a global grant', async () => {
    expect(await expectStatus('scoped', 'PATCH', `/api/organizations/${ids.cdA}`, { name: 'A1 mới' })).toBe(200);
    expect(await expectStatus('scoped', 'PATCH', `/api/organizations/${ids.cdB}`, { name: 'x' })).toBe(403);
    expect(await expectStatus('none', 'PATCH', `/api/organizations/${ids.cdA}`, { name: 'x' })).toBe(403);
    expect(await expectStatus('global', 'PATCH', `/api/organizations/${ids.cdB}`, { name: 'B1 mới' })).toBe(200);
    const u = await t.createUser('MEMBER1');
    expect(await expectStatus('scoped', 'POST', `/api/organizations/${ids.cdA}/members/${u.id}`, {})).toBe(201);
    expect(await expectStatus('scoped', 'POST', `/api/organizations/${ids.cdB}/members/${u.id}`, {})).toBe(403);
    expect(await expectStatus('none', 'POST', `/api/organizations/${ids.cdA}/members/${u.id}`, {})).toBe(403);
    expect(await expectStatus('scoped', 'PUT', `/api/users/${u.id}/organizations`, { organizationIds: [ids.cdB] })).toBe(403);
    expect(t.db.select().from(organizationMembers).all().some((m) => m.organizationId === ids.cdB)).toBe(false);
    for (const a of ['global', 'scoped', 'none'] as Actor[]) {
      expect(await expectStatus(a, 'POST', '/api/organizations', { name: 'X', code: `X-${a}`, type: 'doan_co_so', parentId: ids.doan })).toBe(403);
    }
    expect(await expectStatus('super', 'POST', '/api/organizations', { name: 'X', code: 'X-super', type: 'doan_co_so', parentId: ids.doan })).toBe(201);
  });
});
