/**
 * Organizations seen through writes made elsewhere (users API, direct SQL as imports do), deletes
 * blocked by other records, and PUT /users/:id/organizations for an organization-scoped admin.
 */
import { eq } from 'drizzle-orm';
import { gunzipSync } from 'node:zlib';
import { beforeEach, describe, expect, it } from 'vitest';
import { paymentCampaigns } from '../db/tables/payments';
import { userRoles } from '../db/tables/roles';
import { TEST_ENGINE, type TestApp } from '../test/harness';
import { activeOrgIds, createOrgs, orgWorld, recordStatements, type OrgTree } from './fixture';
import { insertSlices } from '../seed/batches';
import { organizationMembers } from '../db/tables/organizations';
import { allRows, runQuery } from '../db/engine';

let t: TestApp;
let org: OrgTree<'lch'>;

beforeEach(async () => {
  ({ t, org } = await orgWorld(['lch']));
});

type Node = { id: number; memberCount: number | null; children: Node[] };
const find = (nodes: Node[], id: number): Node | undefined => {
  for (const n of nodes) {
    if (n.id === id) return n;
    const hit = find(n.children, id);
    if (hit) return hit;
  }
  return undefined;
};
const countIn = async (id: number) =>
  find((await t.request('GET', '/api/organizations/tree', { token: t.adminToken })).body, id)?.memberCount;
const orgsOf = (userId: number) => activeOrgIds(t, userId);

describe('tree and stats stay current after writes outside the organizations API', () => {
  it('a user created with an organization, then deleted, shows in the counts at once', async () => {
    expect(await countIn(org.cd)).toBe(0);
    const body = { code: 'SV9', familyName: 'Trần', givenName: 'Bình', email: 'sv9@test.vn', phone: '0901234567', organizationId: org.cd };
    const created = await t.request('POST', '/api/users', { token: t.adminToken, body });
    expect(created.status).toBe(201);
    expect(await countIn(org.cd)).toBe(1);
    expect(await countIn(org.doan)).toBe(1);
    expect((await t.request('DELETE', `/api/users/${created.body.id}`, { token: t.adminToken })).status).toBe(200);
    expect(await countIn(org.cd)).toBe(0);
  });

  it('memberships written directly (as an import does), including a reactivation, are counted', async () => {
    const u = await t.createUser('SV1');
    expect(await countIn(org.lch)).toBe(0);
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: org.lch, userId: u.id, isActive: false }));
    expect(await countIn(org.lch)).toBe(0);
    await runQuery(t.db.update(organizationMembers).set({ isActive: true }).where(eq(organizationMembers.userId, u.id)));
    expect(await countIn(org.lch)).toBe(1);
    const stats = await t.request('GET', '/api/organizations/stats', { token: t.adminToken });
    expect(stats.body.hoiStats.members.lienChiHoi).toBe(1);
  });
});

describe('tree queries', () => {
  /** The organization statements the database receives while running fn (fixture.ts: prepared on SQLite, sent on PostgreSQL). */
  const statements = async (fn: () => Promise<unknown>) => (await recordStatements(t, fn)).filter((q) => /from "organization/.test(q));

  it('builds with one query for 5 or 500 organizations with members (no query per node, no count over memberships)', async () => {
    // Members spread over ten users: one user in all 505 units makes each join rebuild that user's
    // search text and facets over hundreds of memberships (20–40 s on a busy machine), which is not what is tested here.
    const members = await Promise.all(Array.from({ length: 10 }, (_, i) => t.createUser(`SVQ${i}`)));
    // The units, then their members, a statement per slice (fixture.ts createOrgs: the rows t.createOrg writes).
    const grow = async (n: number) => {
      const ids = await createOrgs(
        t,
        'chi_doan',
        Array.from({ length: n }, (_, i) => `Q${n}-${i}`),
        org.dcs,
      );
      const rows = ids.map((id, i) => ({ organizationId: id, userId: members[i % 10]!.id }));
      for (const slice of insertSlices(organizationMembers, rows)) await runQuery(t.db.insert(organizationMembers).values(slice));
    };
    await grow(5);
    const small = await statements(() => t.request('GET', '/api/organizations/tree', { token: t.adminToken }));
    await grow(500);
    const large = await statements(() => t.request('GET', '/api/organizations/tree', { token: t.adminToken }));
    // One query for the nodes and one for their trigger-kept member counts (on SQLite prepared once, then reused), whatever the size.
    expect(small).toHaveLength(2);
    expect(small.join('\n')).toMatch(/organization_member_counts/);
    expect(large).toHaveLength(TEST_ENGINE === 'pg' ? 2 : 1);
    expect([...small, ...large].join('\n')).not.toMatch(/count\(/i);
    // Then served from the cache until something is written.
    expect(await statements(() => t.request('GET', '/api/organizations/tree', { token: t.adminToken }))).toHaveLength(0);
  });

  it('after a membership change only the counts are read again, and the tree is the one a full rebuild gives', async () => {
    const u = await t.createUser('SVM');
    await t.request('GET', '/api/organizations/tree', { token: t.adminToken });
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: org.lch, userId: u.id }));
    const read = await statements(async () => {
      const res = await t.app.request('/api/organizations/tree', {
        headers: { authorization: `Bearer ${t.adminToken}`, 'accept-encoding': 'gzip' },
      });
      const text = new TextDecoder().decode(gunzipSync(Buffer.from(await res.arrayBuffer())));
      const { buildTree } = await import('./tree');
      expect(text).toBe(JSON.stringify(await buildTree(t.db, { all: true, paths: [], memberOrgIds: [] }, true)));
      expect(find(JSON.parse(text) as Node[], org.lch)?.memberCount).toBe(1);
    });
    // The nodes query is not run again (the counts statement was prepared before and is reused).
    expect(read.filter((q) => /from "organizations"/.test(q))).toHaveLength(0);
  });
});

describe('stats members blocks', () => {
  it('split each group’s members into both / only đoàn / only hội / neither', async () => {
    const { users } = await import('../db/tables/users');
    const statuses = ['both', 'doan_vien', 'hoi_vien', 'none'] as const;
    for (const [i, s] of statuses.entries()) {
      const u = await t.createUser(`S${i}`);
      await runQuery(t.db.update(users).set({ membershipStatus: s }).where(eq(users.id, u.id)));
      await runQuery(t.db.insert(organizationMembers).values({ organizationId: org.cd, userId: u.id }));
      if (s !== 'none') await runQuery(t.db.insert(organizationMembers).values({ organizationId: org.lch, userId: u.id }));
    }
    const s = await t.request('GET', '/api/organizations/stats', { token: t.adminToken });
    expect(s.status).toBe(200);
    expect(s.body.doanStats.members).toMatchObject({ total: 4, chiDoan: 4, both: 1, onlyDoanVien: 1, onlyHoiVien: 1, neither: 1 });
    expect(s.body.hoiStats.members).toMatchObject({ total: 3, lienChiHoi: 3, both: 1, onlyDoanVien: 1, onlyHoiVien: 1, neither: 0 });
    expect(s.body.clbStats.members).toEqual({ total: 0, clbTruong: 0, clbKhoa: 0, both: 0, onlyDoanVien: 0, onlyHoiVien: 0, neither: 0 });
    expect(s.body.totalMembers).toBe(4);
  });
});

describe('PATCH /organizations/:id and the parent', () => {
  it('accepts the current parent and refuses another one (400) instead of ignoring it', async () => {
    const same = await t.request('PATCH', `/api/organizations/${org.cd}`, {
      token: t.adminToken,
      body: { name: 'Chi đoàn 1', parentId: org.dcs },
    });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ name: 'Chi đoàn 1', parentId: org.dcs });
    const dcs2 = await t.createOrg('doan_co_so', 'DCS2', org.doan);
    const moved = await t.request('PATCH', `/api/organizations/${org.cd}`, { token: t.adminToken, body: { parentId: dcs2 } });
    expect(moved.status).toBe(400);
    expect((await t.request('GET', `/api/organizations/${org.cd}`, { token: t.adminToken })).body.parentId).toBe(org.dcs);
    expect((await t.request('PATCH', `/api/organizations/${org.doan}`, { token: t.adminToken, body: { parentId: null } })).status).toBe(
      200,
    );
    expect((await t.request('PATCH', `/api/organizations/${org.cd}`, { token: t.adminToken, body: { parentId: 'x' } })).status).toBe(400);
  });
});

describe('DELETE /organizations/:id blocked by other records', () => {
  it('409 (not 500) while payment campaigns belong to it', async () => {
    const now = new Date();
    await runQuery(t.db.insert(paymentCampaigns).values({ organizationId: org.lch, name: 'Hội phí', startDate: now, endDate: now }));
    const res = await t.request('DELETE', `/api/organizations/${org.lch}`, { token: t.adminToken });
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('đợt thu');
  });

  it('drops role grants held in the deleted organization at once', async () => {
    const role = await t.createRole('lch_admin', ['organizations.access']);
    const holder = await t.createUser('HOLDER', [{ roleId: role, organizationId: org.lch }]);
    expect((await t.request('GET', '/api/organizations/tree', { token: holder.token })).status).toBe(200);
    expect((await t.request('DELETE', `/api/organizations/${org.lch}`, { token: t.adminToken })).status).toBe(200);
    expect(await allRows(t.db.select().from(userRoles).where(eq(userRoles.userId, holder.id)))).toEqual([]);
    expect((await t.request('GET', '/api/organizations/tree', { token: holder.token })).status).toBe(403);
  });
});

describe('PUT /users/:id/organizations by an organization-scoped admin', () => {
  let token: string;
  beforeEach(async () => {
    const role = await t.createRole('faculty_admin', [
      'organizations.access',
      'organizations.add_member',
      'organizations.remove_member',
      'users.access',
      'users.update',
    ]);
    token = (await t.createUser('FAC', [{ roleId: role, organizationId: org.dcs }])).token;
  });

  // Parents follow only up to the caller's reach: the Đoàn root above the faculty is never written.
  it('adds inside its subtree (parents follow up to its reach, never above) and leaves memberships it cannot see alone', async () => {
    const u = await t.createUser('SV2');
    await runQuery(
      t.db.insert(organizationMembers).values([
        { organizationId: org.dcs, userId: u.id },
        { organizationId: org.hoi, userId: u.id },
        { organizationId: org.lch, userId: u.id },
      ]),
    );
    const res = await t.request('PUT', `/api/users/${u.id}/organizations`, { token, body: { organizationIds: [org.cd] } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ added: 1, removed: 0, keptParents: 1 });
    expect(await orgsOf(u.id)).toEqual([org.hoi, org.dcs, org.cd, org.lch].sort((a, b) => a - b));
    const dropped = await t.request('PUT', `/api/users/${u.id}/organizations`, { token, body: { organizationIds: [] } });
    expect(dropped.body).toMatchObject({ removed: 2 });
    expect(await orgsOf(u.id)).toEqual([org.hoi, org.lch].sort((a, b) => a - b));
  });

  it('403 for a user it may see but not update', async () => {
    const role = await t.createRole('faculty_viewer', ['organizations.access', 'organizations.add_member', 'users.access', 'users.update']);
    const viewer = await t.createUser('VIEW', [{ roleId: role, organizationId: org.cd }]);
    const u = await t.createUser('SV3');
    await runQuery(t.db.insert(organizationMembers).values([{ organizationId: org.dcs, userId: u.id }]));
    // users.update held only in cd does not reach a member of dcs; users.access in cd does not see them either.
    expect(
      (await t.request('PUT', `/api/users/${u.id}/organizations`, { token: viewer.token, body: { organizationIds: [org.cd] } })).status,
    ).toBe(404);
    const seer = await t.createRole('faculty_seer', ['organizations.access', 'organizations.add_member', 'users.access']);
    const updater = await t.createRole('class_updater', ['users.update']);
    const mixed = await t.createUser('MIX', [
      { roleId: seer, organizationId: org.dcs },
      { roleId: updater, organizationId: org.cd },
    ]);
    expect(
      (await t.request('PUT', `/api/users/${u.id}/organizations`, { token: mixed.token, body: { organizationIds: [org.dcs, org.cd] } }))
        .status,
    ).toBe(403);
    expect(await orgsOf(u.id)).toEqual([org.dcs]);
  });

  it('404 for a user outside its reach, 403 for an organization outside its subtree', async () => {
    const outsider = await t.createUser('OUT');
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: org.lch, userId: outsider.id }));
    expect((await t.request('PUT', `/api/users/${outsider.id}/organizations`, { token, body: { organizationIds: [org.cd] } })).status).toBe(
      404,
    );
    const insider = await t.createUser('IN');
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: org.dcs, userId: insider.id }));
    expect(
      (await t.request('PUT', `/api/users/${insider.id}/organizations`, { token, body: { organizationIds: [org.dcs, org.lch] } })).status,
    ).toBe(403);
    expect(await orgsOf(insider.id)).toEqual([org.dcs]);
  });
});
