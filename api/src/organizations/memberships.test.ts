/** Membership routes (000 §4, §7): add, with parents, by code, remove, safely, bulk, and PUT /users/:id/organizations. */
import { beforeEach, describe, expect, it } from 'vitest';
import { auditLogs } from '../db/tables/audit';
import type { TestApp } from '../test/harness';
import { activeOrgIds, orgWorld, type OrgTree } from './fixture';
import { organizationMembers } from '../db/tables/organizations';
import { allRows, runQuery } from '../db/engine';

let t: TestApp;
let org: OrgTree<'cd2' | 'lch'>;

beforeEach(async () => {
  ({ t, org } = await orgWorld(['cd2', 'lch']));
});

const call = (method: string, path: string, body?: unknown) => t.request(method, path, { token: t.adminToken, body });
const orgsOf = (userId: number) => activeOrgIds(t, userId);
const member = async (organizationId: number, userId: number) =>
  await runQuery(t.db.insert(organizationMembers).values({ organizationId, userId }));
const actions = async () => (await allRows(t.db.select({ action: auditLogs.action }).from(auditLogs))).map((a) => a.action);

describe('POST /organizations/:id/members/:userId', () => {
  it('adds with the given role, then refuses a duplicate (400), an unknown user or organization (404) and a bad role (400)', async () => {
    const u = await t.createUser('SV1');
    const add = await call('POST', `/api/organizations/${org.cd}/members/${u.id}`, { role: 'secretary' });
    expect(add.status).toBe(201);
    expect(await orgsOf(u.id)).toEqual([org.cd]);
    const list = await call('GET', `/api/organizations/${org.cd}/members`);
    expect(list.body.members[0]).toMatchObject({ role: 'secretary', user: { id: u.id } });
    const dup = await call('POST', `/api/organizations/${org.cd}/members/${u.id}`, {});
    expect(dup.status).toBe(400);
    expect(dup.body.message).toBe('Người dùng đã là thành viên của tổ chức');
    expect((await call('POST', `/api/organizations/${org.cd}/members/424242`, {})).status).toBe(404);
    expect((await call('POST', `/api/organizations/424242/members/${u.id}`, {})).status).toBe(404);
    expect((await call('POST', `/api/organizations/${org.cd2}/members/${u.id}`, { role: '' })).status).toBe(400);
    expect((await call('POST', `/api/organizations/${org.cd2}/members/abc`, {})).status).toBe(400);
    expect(await actions()).toContain('membership.add');
  });

  it('defaults the role to member without a body', async () => {
    const u = await t.createUser('SV2');
    expect((await call('POST', `/api/organizations/${org.cd}/members/${u.id}`)).status).toBe(201);
    expect((await call('GET', `/api/organizations/${org.cd}/members`)).body.members[0].role).toBe('member');
  });

  it('re-adding after a removal works', async () => {
    const u = await t.createUser('SV3');
    await call('POST', `/api/organizations/${org.cd}/members/${u.id}`, {});
    await call('DELETE', `/api/organizations/${org.cd}/members/${u.id}`);
    expect((await call('POST', `/api/organizations/${org.cd}/members/${u.id}`, {})).status).toBe(201);
    expect(await orgsOf(u.id)).toEqual([org.cd]);
  });
});

describe('with parents and by code', () => {
  it('with-parents joins the organization and every ancestor, skipping existing memberships', async () => {
    const u = await t.createUser('SV4');
    await member(org.doan, u.id);
    const res = await call('POST', `/api/organizations/${org.cd}/members/${u.id}/with-parents`);
    expect(res.status).toBe(201);
    expect(res.body.added).toBe(2);
    expect(await orgsOf(u.id)).toEqual([org.doan, org.dcs, org.cd].sort((a, b) => a - b));
    expect((await call('POST', `/api/organizations/${org.cd}/members/${u.id}/with-parents`)).status).toBe(400);
    expect((await call('POST', `/api/organizations/${org.cd}/members/424242/with-parents`)).status).toBe(404);
  });

  it('with-parents brings back ended memberships of the parents beside new ones, all active and counted once', async () => {
    const u = await t.createUser('SV4B');
    await call('POST', `/api/organizations/${org.cd2}/members/${u.id}/with-parents`);
    expect(await orgsOf(u.id)).toEqual([org.doan, org.dcs, org.cd2].sort((a, b) => a - b));
    // Left the whole faculty: every membership ended, kept as history.
    expect((await call('DELETE', `/api/organizations/${org.doan}/members/${u.id}`)).status).toBe(200);
    expect(await orgsOf(u.id)).toEqual([]);
    const res = await call('POST', `/api/organizations/${org.cd}/members/${u.id}/with-parents`);
    expect(res.status).toBe(201);
    expect(res.body.added).toBe(3);
    expect(await orgsOf(u.id)).toEqual([org.doan, org.dcs, org.cd].sort((a, b) => a - b));
    const rows = await allRows(t.db.select().from(organizationMembers));
    const mine = rows.filter((m) => m.userId === u.id);
    expect(mine.filter((m) => m.isActive).every((m) => m.endedAt === null && m.endReason === null && m.role === 'member')).toBe(true);
    const detail = await call('GET', `/api/organizations/${org.dcs}`);
    expect(detail.status).toBe(200);
    // The children's counts are the trigger-kept ones: the chi đoàn joined counts them, the one left does not.
    const counts = Object.fromEntries((detail.body.children as { id: number; memberCount: number }[]).map((c) => [c.id, c.memberCount]));
    expect(counts).toMatchObject({ [org.cd]: 1, [org.cd2]: 0 });
  });

  it('POST /:id/member/:code adds with parents; the body userCode wins over the path', async () => {
    const u = await t.createUser('SV5');
    const res = await call('POST', `/api/organizations/${org.cd}/member/NOBODY`, { userCode: 'SV5' });
    expect(res.status).toBe(201);
    expect(await orgsOf(u.id)).toEqual([org.doan, org.dcs, org.cd].sort((a, b) => a - b));
    const byPath = await t.createUser('SV6');
    expect((await call('POST', `/api/organizations/${org.lch}/member/SV6`, {})).status).toBe(201);
    expect(await orgsOf(byPath.id)).toEqual([org.hoi, org.lch].sort((a, b) => a - b));
    const unknown = await call('POST', `/api/organizations/${org.cd}/member/NOBODY`, {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Không tìm thấy người dùng');
    expect((await call('POST', `/api/organizations/${org.cd}/member/SV5`, {})).status).toBe(400);
  });
});

describe('removals', () => {
  it('DELETE removes a member and 404s for a non-member', async () => {
    const u = await t.createUser('SV7');
    await member(org.cd, u.id);
    expect((await call('DELETE', `/api/organizations/${org.cd}/members/${u.id}`)).status).toBe(200);
    expect(await orgsOf(u.id)).toEqual([]);
    expect((await call('DELETE', `/api/organizations/${org.cd}/members/${u.id}`)).status).toBe(404);
    expect((await call('DELETE', `/api/organizations/424242/members/${u.id}`)).status).toBe(404);
    expect(await actions()).toContain('membership.remove');
  });

  it('safely refuses (409) while the user belongs to a descendant', async () => {
    const u = await t.createUser('SV8');
    for (const o of [org.doan, org.dcs, org.cd]) await member(o, u.id);
    const refused = await call('DELETE', `/api/organizations/${org.doan}/members/${u.id}/safely`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('tổ chức con');
    expect((await call('DELETE', `/api/organizations/${org.cd}/members/${u.id}/safely`)).status).toBe(200);
    expect((await call('DELETE', `/api/organizations/${org.dcs}/members/${u.id}/safely`)).status).toBe(200);
    expect((await call('DELETE', `/api/organizations/${org.doan}/members/${u.id}/safely`)).status).toBe(200);
    expect((await call('DELETE', `/api/organizations/${org.doan}/members/${u.id}/safely`)).status).toBe(404);
  });

  it('bulk-remove reports how many memberships went, and needs a non-empty list', async () => {
    const a = await t.createUser('SV9');
    const b = await t.createUser('SV10');
    const c = await t.createUser('SV11');
    await member(org.cd, a.id);
    await member(org.cd, b.id);
    const res = await call('DELETE', `/api/organizations/${org.cd}/members/bulk-remove`, { userIds: [a.id, b.id, c.id] });
    expect(res.status).toBe(200);
    expect(res.body.removedCount).toBe(2);
    expect((await call('DELETE', `/api/organizations/${org.cd}/members/bulk-remove`, { userIds: [] })).status).toBe(400);
    expect((await call('DELETE', `/api/organizations/${org.cd}/members/bulk-remove`, { userIds: ['x'] })).status).toBe(400);
    expect((await call('DELETE', `/api/organizations/424242/members/bulk-remove`, { userIds: [a.id] })).status).toBe(404);
    expect(await actions()).toContain('membership.bulk_remove');
  });
});

describe('PUT /users/:id/organizations', () => {
  it('adds parents of new organizations, removes dropped ones and keeps those still parents', async () => {
    const u = await t.createUser('SV12');
    const first = await call('PUT', `/api/users/${u.id}/organizations`, { organizationIds: [org.cd] });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ message: 'Cập nhật thành viên tổ chức thành công', added: 3, removed: 0, keptParents: 0 });
    // Moving to a sibling chi đoàn: CD1 goes, DT and DCS stay as parents of CD2.
    const move = await call('PUT', `/api/users/${u.id}/organizations`, { organizationIds: [org.cd2] });
    expect(move.body).toMatchObject({ added: 1, removed: 1, keptParents: 2 });
    expect(await orgsOf(u.id)).toEqual([org.doan, org.dcs, org.cd2].sort((a, b) => a - b));
    const clear = await call('PUT', `/api/users/${u.id}/organizations`, { organizationIds: [] });
    expect(clear.body).toMatchObject({ added: 0, removed: 3, keptParents: 0 });
    expect(await orgsOf(u.id)).toEqual([]);
    expect(await actions()).toContain('membership.set');
  });

  it('400 on unknown organizations or a bad body, 404 on an unknown user', async () => {
    const u = await t.createUser('SV13');
    const unknown = await call('PUT', `/api/users/${u.id}/organizations`, { organizationIds: [org.cd, 424242] });
    expect(unknown.status).toBe(400);
    expect(await orgsOf(u.id)).toEqual([]);
    expect((await call('PUT', `/api/users/${u.id}/organizations`, {})).status).toBe(400);
    expect((await call('PUT', `/api/users/${u.id}/organizations`, { organizationIds: 'x' })).status).toBe(400);
    expect((await call('PUT', '/api/users/424242/organizations', { organizationIds: [org.cd] })).status).toBe(404);
  });

  it('the users list filtered by organization sees the change at once', async () => {
    const u = await t.createUser('SV14');
    const before = await call('GET', `/api/users?organizationId=${org.cd}`);
    expect(before.status).toBe(200);
    await call('PUT', `/api/users/${u.id}/organizations`, { organizationIds: [org.cd] });
    const after = await call('GET', `/api/users?organizationId=${org.cd}`);
    expect(after.body.total).toBe(before.body.total + 1);
  });
});
