/** Reads the admin's organization screens need: one tree level per node and a subtree's statistics. */
import { beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness';
import { orgWorld, type OrgTree } from './fixture';
import { organizationMembers } from '../db/tables/organizations';
import { runQuery } from '../db/engine';

let t: TestApp;
let org: OrgTree<'cd2' | 'lch'>;

beforeEach(async () => {
  ({ t, org } = await orgWorld(['cd2', 'lch']));
});

describe('GET /organizations/:id/child-nodes', () => {
  it('returns one level with hasChildren and member counts, never the levels beneath', async () => {
    const u = await t.createUser('SV1');
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: org.cd, userId: u.id }));
    const root = await t.request('GET', `/api/organizations/${org.doan}/child-nodes`, { token: t.adminToken });
    expect(root.status).toBe(200);
    expect(root.body).toEqual([expect.objectContaining({ id: org.dcs, hasChildren: true, children: [] })]);
    const dcs = await t.request('GET', `/api/organizations/${org.dcs}/child-nodes`, { token: t.adminToken });
    expect(dcs.body.map((n: { id: number }) => n.id).sort()).toEqual([org.cd, org.cd2].sort());
    expect(dcs.body.find((n: { id: number }) => n.id === org.cd)).toMatchObject({ hasChildren: false, memberCount: 1 });
  });

  it('answers 404 for an organization the caller cannot see', async () => {
    const role = await t.createRole('viewer', ['organizations.access']);
    const viewer = await t.createUser('V1', [{ roleId: role, organizationId: org.dcs }]);
    expect((await t.request('GET', `/api/organizations/${org.dcs}/child-nodes`, { token: viewer.token })).status).toBe(200);
    expect([403, 404]).toContain((await t.request('GET', `/api/organizations/${org.hoi}/child-nodes`, { token: viewer.token })).status);
  });
});

describe('GET /organizations/:id/stats', () => {
  it('counts the organization and its subtree only, with the Đoàn/Hội split', async () => {
    const a = await t.createUser('SV1');
    const b = await t.createUser('SV2');
    await runQuery(
      t.db.insert(organizationMembers).values([
        { organizationId: org.cd, userId: a.id },
        { organizationId: org.lch, userId: b.id },
      ]),
    );
    const res = await t.request('GET', `/api/organizations/${org.dcs}/stats`, { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.totalMembers).toBe(1);
    expect(res.body.doanStats).toMatchObject({ total: 3, doanCoSo: 1, chiDoan: 2 });
    expect(res.body.hoiStats.total).toBe(0);
    expect(res.body.membershipBreakdown).toEqual({ both: 0, onlyDoanVien: 0, onlyHoiVien: 0, neither: 1 });
  });

  it('needs view_member_count in that organization', async () => {
    const role = await t.createRole('viewer', ['organizations.access']);
    const viewer = await t.createUser('V1', [{ roleId: role, organizationId: org.dcs }]);
    expect((await t.request('GET', `/api/organizations/${org.dcs}/stats`, { token: viewer.token })).status).toBe(403);
  });
});

describe('GET /organizations rows for pickers', () => {
  it('carry the parent name and the ancestors from the root', async () => {
    const res = await t.request('GET', '/api/organizations?type=chi_doan', { token: t.adminToken });
    const cd = res.body.data.find((o: { id: number }) => o.id === org.cd);
    expect(cd).toMatchObject({ parentName: 'DCS', ancestorIds: [org.doan, org.dcs] });
    const root = (await t.request('GET', '/api/organizations?type=doan_truong', { token: t.adminToken })).body.data[0];
    expect(root).toMatchObject({ parentName: null, ancestorIds: [] });
  });
});
