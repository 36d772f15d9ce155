import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { organizationMembers } from '../db/tables/organizations';
import { makeTestApp, type TestApp } from '../test/harness';
import { addMember, insertUser, newUserBody, scopedWorld } from './fixture';
import { users } from '../db/tables/users';
import { allRows, firstRow } from '../db/engine';

/**
 * An officer whose users.* codes come from an organization role manages the active members of that
 * organization and of the organizations beneath it, and nobody else.
 */
let t: TestApp;
let w: Awaited<ReturnType<typeof scopedWorld>>;
let inFaculty: number;
let inChiDoan: number;
let inOther: number;
let noOrg: number;
let former: number;
let both: number;

const ids = (body: { users: { id: number }[] }) => body.users.map((u) => u.id);

beforeAll(async () => {
  t = await makeTestApp();
  w = await scopedWorld(t, 'S');
  inFaculty = await insertUser(t, { familyName: 'Phạm', givenName: 'Khoa' }, w.f1);
  inChiDoan = await insertUser(t, { familyName: 'Phạm', givenName: 'Chi' }, w.c1);
  inOther = await insertUser(t, { familyName: 'Phạm', givenName: 'Khác' }, w.f2);
  noOrg = await insertUser(t, { familyName: 'Phạm', givenName: 'Tự do' });
  former = await insertUser(t, { familyName: 'Phạm', givenName: 'Cựu' });
  await addMember(t, former, w.c1, false);
  // A member of an inside and an outside organization is inside.
  both = await insertUser(t, { familyName: 'Phạm', givenName: 'Hai nơi' }, w.f2);
  await addMember(t, both, w.c1);
});

describe('org-scoped users list', () => {
  it('shows only active members of its organization and the ones beneath it', async () => {
    const res = await t.request('GET', '/api/users?search=pham&limit=100', { token: w.orgAdmin.token });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([both, inChiDoan, inFaculty]);
    expect(res.body.total).toBe(3);
  });

  it('a global holder sees everyone', async () => {
    const res = await t.request('GET', '/api/users?search=pham&limit=100', { token: w.globalAdmin.token });
    expect(ids(res.body)).toEqual([both, former, noOrg, inOther, inChiDoan, inFaculty]);
  });

  it('may narrow to an organization inside its scope, not one outside (403)', async () => {
    const inside = await t.request('GET', `/api/users?organizationId=${w.c1}`, { token: w.orgAdmin.token });
    expect(inside.status).toBe(200);
    expect(ids(inside.body)).toEqual([both, inChiDoan]);
    expect((await t.request('GET', `/api/users?organizationId=${w.f2}`, { token: w.orgAdmin.token })).status).toBe(403);
    expect((await t.request('GET', `/api/users?organizationId=${w.root}`, { token: w.orgAdmin.token })).status).toBe(403);
    expect((await t.request('GET', '/api/users?organizationId=999999', { token: w.orgAdmin.token })).status).toBe(403);
  });

  it('the scope follows membership changes', async () => {
    const moved = await insertUser(t, { familyName: 'Dời', givenName: 'Chỗ' }, w.f2);
    const see = async () => ids((await t.request('GET', '/api/users?search=doi%20cho', { token: w.orgAdmin.token })).body);
    expect(await see()).toEqual([]);
    await addMember(t, moved, w.c1);
    expect(await see()).toEqual([moved]);
  });
});

describe('org-scoped reads and writes of one user', () => {
  it('reads users inside; users outside answer 404 as if they did not exist', async () => {
    expect((await t.request('GET', `/api/users/${inChiDoan}`, { token: w.orgAdmin.token })).status).toBe(200);
    // One membership inside is enough, whatever else the user belongs to.
    expect((await t.request('GET', `/api/users/${both}`, { token: w.orgAdmin.token })).status).toBe(200);
    for (const id of [inOther, noOrg, former]) {
      const res = await t.request('GET', `/api/users/${id}`, { token: w.orgAdmin.token });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Không tìm thấy người dùng');
    }
  });

  it("a detail lists every membership, inside the caller's scope or not, without the organizations' paths", async () => {
    const res = await t.request('GET', `/api/users/${both}`, { token: w.orgAdmin.token });
    const orgs = res.body.organizations as { organizationId: number; isActive: boolean }[];
    expect(orgs.map((m) => m.organizationId).sort()).toEqual([w.c1, w.f2].sort());
    expect(orgs.every((m) => m.isActive)).toBe(true);
    for (const m of orgs) expect(Object.keys(m)).not.toContain('path');
    // An ended membership is listed (inactive) to a caller who reaches the user.
    const formerDetail = await t.request('GET', `/api/users/${former}`, { token: w.globalAdmin.token });
    expect(formerDetail.body.organizations).toEqual([expect.objectContaining({ organizationId: w.c1, isActive: false })]);
  });

  it('updates users inside only', async () => {
    const ok = await t.request('PATCH', `/api/users/${inFaculty}`, { token: w.orgAdmin.token, body: { membershipStatus: 'doan_vien' } });
    expect(ok.status).toBe(200);
    const res = await t.request('PATCH', `/api/users/${inOther}`, { token: w.orgAdmin.token, body: { membershipStatus: 'doan_vien' } });
    expect(res.status).toBe(404);
    expect((await firstRow(t.db.select().from(users).where(eq(users.id, inOther))))!.membershipStatus).toBe('none');
  });

  it('deletes users inside only, one at a time or in bulk (all or nothing)', async () => {
    const a = await insertUser(t, {}, w.c1);
    const b = await insertUser(t, {}, w.f1);
    const outside = await insertUser(t, {}, w.f2);
    expect((await t.request('DELETE', `/api/users/${outside}`, { token: w.orgAdmin.token })).status).toBe(404);
    const mixed = await t.request('DELETE', '/api/users/bulk-delete', { token: w.orgAdmin.token, body: { ids: [a, outside] } });
    expect(mixed.status).toBe(404);
    expect(await firstRow(t.db.select().from(users).where(eq(users.id, a)))).toBeDefined();
    const res = await t.request('DELETE', '/api/users/bulk-delete', { token: w.orgAdmin.token, body: { ids: [a, b] } });
    expect(res.body).toEqual({ deletedCount: 2 });
    expect((await t.request('DELETE', `/api/users/${outside}`, { token: w.globalAdmin.token })).status).toBe(200);
  });

  it('403 when the user is visible but the action is held only elsewhere', async () => {
    // users.access everywhere, users.update and users.delete only in F2.
    const seeAll = await t.createRole('s_see_all', ['users.access', 'users.view_details']);
    const manageF2 = await t.createRole('s_manage_f2', ['users.update', 'users.delete']);
    const officer = await t.createUser('SOFF', [{ roleId: seeAll }, { roleId: manageF2, organizationId: w.f2 }]);
    const target = await insertUser(t, {}, w.f1);
    expect((await t.request('GET', `/api/users/${target}`, { token: officer.token })).status).toBe(200);
    expect((await t.request('PATCH', `/api/users/${target}`, { token: officer.token, body: { givenName: 'X' } })).status).toBe(403);
    expect((await t.request('DELETE', `/api/users/${target}`, { token: officer.token })).status).toBe(403);
    expect((await t.request('DELETE', '/api/users/bulk-delete', { token: officer.token, body: { ids: [target] } })).status).toBe(403);
    const inF2 = await insertUser(t, {}, w.f2);
    expect((await t.request('PATCH', `/api/users/${inF2}`, { token: officer.token, body: { givenName: 'Y' } })).status).toBe(200);
  });

  it('a detail: 404 outside users.access or for no such user, 403 outside users.view_details, else the user', async () => {
    // users.access in the whole school, users.view_details only in F1's subtree.
    const see = await t.createRole('s_see_school', ['users.access']);
    const details = await t.createRole('s_details_f1', ['users.view_details']);
    const officer = await t.createUser('SDET', [
      { roleId: see, organizationId: w.root },
      { roleId: details, organizationId: w.f1 },
    ]);
    const get = async (id: number) => (await t.request('GET', `/api/users/${id}`, { token: officer.token })).status;
    expect(await get(inChiDoan)).toBe(200);
    expect(await get(inOther)).toBe(403);
    expect(await get(noOrg)).toBe(404);
    expect(await get(99_999_999)).toBe(404);
    // Both codes held in one subtree: one scope, the same answers.
    const one = await t.createRole('s_both_f1', ['users.access', 'users.view_details']);
    const f1Officer = await t.createUser('SDET1', [{ roleId: one, organizationId: w.f1 }]);
    const getF1 = async (id: number) => (await t.request('GET', `/api/users/${id}`, { token: f1Officer.token })).status;
    expect([await getF1(inChiDoan), await getF1(inOther), await getF1(99_999_999)]).toEqual([200, 404, 404]);
  });
});

describe('org-scoped create', () => {
  // New rule (security issue item 1): parents are joined only up to the creator's reach, never the root above it.
  it('must name an organization inside its scope; the user joins it and its parents within the creator’s reach', async () => {
    const res = await t.request('POST', '/api/users', { token: w.orgAdmin.token, body: newUserBody({ organizationId: w.c1 }) });
    expect(res.status).toBe(201);
    const orgs = await allRows(t.db.select().from(organizationMembers).where(eq(organizationMembers.userId, res.body.id)));
    expect(orgs.map((m) => m.organizationId).sort((x, y) => x - y)).toEqual([w.f1, w.c1].sort((x, y) => x - y));
    // ...and is then visible to its creator.
    expect((await t.request('GET', `/api/users/${res.body.id}`, { token: w.orgAdmin.token })).status).toBe(200);
  });

  it('403 without an organization or with one outside its scope; nothing is created', async () => {
    const none = newUserBody();
    const res = await t.request('POST', '/api/users', { token: w.orgAdmin.token, body: none });
    expect(res.status).toBe(403);
    expect(res.body.message).toContain('tổ chức');
    const outside = newUserBody();
    expect((await t.request('POST', '/api/users', { token: w.orgAdmin.token, body: { ...outside, organizationId: w.f2 } })).status).toBe(
      403,
    );
    const codes = [none.code, outside.code];
    for (const code of codes) expect(await firstRow(t.db.select().from(users).where(eq(users.code, code)))).toBeUndefined();
  });

  it('a global holder may create without an organization', async () => {
    expect((await t.request('POST', '/api/users', { token: w.globalAdmin.token, body: newUserBody() })).status).toBe(201);
  });
});
