/** Organization reads (000 §7): lists, lookups, members and the tree, with bad input and unknown ids. */
import { beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness';
import { orgWorld, type OrgTree } from './fixture';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { runQuery, sqlRun, withTransaction } from '../db/engine';
import { sql } from 'drizzle-orm';
import { mapInOrder } from '../lib/in-order';

let t: TestApp;
let org: OrgTree<'cd2'>;

beforeEach(async () => {
  ({ t, org } = await orgWorld(['cd2']));
});

const get = (path: string, token = t.adminToken) => t.request('GET', path, { token });
const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

describe('GET /organizations', () => {
  it('pages, filters by type and searches without accents', async () => {
    const created = await t.request('POST', '/api/organizations', {
      token: t.adminToken,
      body: { name: 'Chi đoàn Kỹ thuật', code: 'KT', type: 'chi_doan', parentId: org.dcs },
    });
    expect(created.status).toBe(201);
    const page = await get('/api/organizations?page=2&limit=2');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ total: 6, page: 2, limit: 2, totalPages: 3 });
    expect(page.body.data).toHaveLength(2);
    const byType = await get('/api/organizations?type=chi_doan');
    expect(ids(byType.body.data).sort()).toEqual([org.cd, org.cd2, created.body.id].sort());
    const search = await get(`/api/organizations?search=${encodeURIComponent('ky thuat')}`);
    expect(ids(search.body.data)).toEqual([created.body.id]);
    expect(search.body.data[0]).not.toHaveProperty('searchText');
  });

  it('400 on a bad page, limit or type', async () => {
    for (const q of ['page=0', 'limit=0', 'limit=abc', 'type=nope']) expect((await get(`/api/organizations?${q}`)).status, q).toBe(400);
  });
});

describe('single organization', () => {
  it('GET /:id returns parent, children, breadcrumb and member count', async () => {
    const u = await t.createUser('SV1');
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: org.dcs, userId: u.id }));
    const res = await get(`/api/organizations/${org.dcs}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: org.dcs,
      code: 'DCS',
      type: 'doan_co_so',
      parentId: org.doan,
      parent: { id: org.doan },
      hasChildren: true,
      memberCount: 1,
    });
    expect(ids(res.body.children).sort()).toEqual([org.cd, org.cd2].sort());
    expect(ids(res.body.breadcrumb)).toEqual([org.doan, org.dcs]);
  });

  it('children, parent and breadcrumb', async () => {
    expect(ids((await get(`/api/organizations/${org.dcs}/children`)).body).sort()).toEqual([org.cd, org.cd2].sort());
    expect((await get(`/api/organizations/${org.cd}/children`)).body).toEqual([]);
    expect((await get(`/api/organizations/${org.cd}/parent`)).body).toMatchObject({ id: org.dcs, code: 'DCS' });
    const rootParent = await get(`/api/organizations/${org.doan}/parent`);
    expect(rootParent.status).toBe(200);
    expect(rootParent.body).toBeNull();
    const crumbs = await get(`/api/organizations/${org.cd}/breadcrumb`);
    expect(crumbs.body).toEqual([
      { id: org.doan, name: 'DT', code: 'DT', type: 'doan_truong' },
      { id: org.dcs, name: 'DCS', code: 'DCS', type: 'doan_co_so' },
      { id: org.cd, name: 'CD1', code: 'CD1', type: 'chi_doan' },
    ]);
  });

  it('404 on unknown ids and 400 on malformed ones', async () => {
    for (const p of ['', '/children', '/parent', '/breadcrumb', '/members']) {
      expect((await get(`/api/organizations/987654${p}`)).status, p).toBe(404);
      expect((await get(`/api/organizations/abc${p}`)).status, p).toBe(400);
    }
  });

  it('type and type+code lookups', async () => {
    expect(ids((await get('/api/organizations/type/chi_doan')).body).sort()).toEqual([org.cd, org.cd2].sort());
    expect((await get('/api/organizations/type/hoi_sinh_vien_truong')).body.map((o: { id: number }) => o.id)).toEqual([org.hoi]);
    expect((await get('/api/organizations/type/nope')).status).toBe(400);
    expect((await get('/api/organizations/by-type-code/chi_doan/CD2')).body.id).toBe(org.cd2);
    expect((await get('/api/organizations/by-type-code/doan_co_so/CD2')).status).toBe(404);
    expect((await get('/api/organizations/by-type-code/nope/CD2')).status).toBe(400);
  });
});

describe('GET /organizations/:id/members', () => {
  it('pages (defaults 1 and 10), searches, and returns the member user fields only', async () => {
    for (let i = 1; i <= 12; i++) {
      const u = await t.createUser(`M${String(i).padStart(2, '0')}`);
      await runQuery(
        t.db.insert(organizationMembers).values({ organizationId: org.cd, userId: u.id, role: i === 1 ? 'secretary' : 'member' }),
      );
    }
    const first = await get(`/api/organizations/${org.cd}/members`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 12, totalPages: 2, page: 1 });
    expect(first.body.members).toHaveLength(10);
    const m = first.body.members.find((x: { user: { code: string } }) => x.user.code === 'M01');
    expect(m.role).toBe('secretary');
    expect(typeof m.joinedAt).toBe('string');
    for (const key of [
      'id',
      'code',
      'familyName',
      'givenName',
      'email',
      'phone',
      'userType',
      'membershipStatus',
      'isActive',
      'createdAt',
      'updatedAt',
    ])
      expect(m.user).toHaveProperty(key);
    expect(m.user).not.toHaveProperty('passwordHash');
    expect(m.user).not.toHaveProperty('searchText');
    const second = await get(`/api/organizations/${org.cd}/members?page=2`);
    expect(second.body.members).toHaveLength(2);
    // Past the end: no rows, the total still given (PostgreSQL reads it apart when the page is empty).
    expect((await get(`/api/organizations/${org.cd}/members?page=3`)).body).toMatchObject({ members: [], total: 12, totalPages: 2 });
    const search = await get(`/api/organizations/${org.cd}/members?search=m07`);
    expect(search.body.members.map((x: { user: { code: string } }) => x.user.code)).toEqual(['M07']);
    expect((await get(`/api/organizations/${org.cd}/members?limit=0`)).status).toBe(400);
    expect((await get(`/api/organizations/${org.cd2}/members`)).body).toMatchObject({ members: [], total: 0, totalPages: 1 });
  });
});

describe('GET /organizations/tree', () => {
  it('shows member counts only to callers holding organizations.view_member_count', async () => {
    const u = await t.createUser('SV2');
    await runQuery(
      t.db.insert(organizationMembers).values([
        { organizationId: org.cd, userId: u.id },
        { organizationId: org.dcs, userId: u.id },
      ]),
    );
    const counted = await get('/api/organizations/tree');
    const root = counted.body.find((n: { id: number }) => n.id === org.doan);
    expect(root).toMatchObject({ memberCount: 0, hasChildren: true, parentId: null });
    const dcsNode = root.children[0];
    expect(dcsNode).toMatchObject({ id: org.dcs, memberCount: 1, hasChildren: true });
    expect(dcsNode.children.find((n: { id: number }) => n.id === org.cd)).toMatchObject({
      memberCount: 1,
      hasChildren: false,
      children: [],
    });
    expect(counted.body.find((n: { id: number }) => n.id === org.hoi)).toMatchObject({ hasChildren: false, children: [] });

    const role = await t.createRole('viewer', ['organizations.access']);
    const viewer = await t.createUser('VIEWER', [{ roleId: role }]);
    const plain = await get('/api/organizations/tree', viewer.token);
    expect(plain.status).toBe(200);
    expect(plain.body.find((n: { id: number }) => n.id === org.doan).memberCount).toBeNull();
  });

  it('reflects membership changes made through the API (cache invalidated)', async () => {
    const u = await t.createUser('SV3');
    await get('/api/organizations/tree');
    expect((await t.request('POST', `/api/organizations/${org.cd2}/members/${u.id}`, { token: t.adminToken, body: {} })).status).toBe(201);
    const tree = await get('/api/organizations/tree');
    const node = tree.body
      .find((n: { id: number }) => n.id === org.doan)
      .children[0].children.find((n: { id: number }) => n.id === org.cd2);
    expect(node.memberCount).toBe(1);
  });

  // Its speed is measured by `npm run bench`, not here: this checks the shape of a large tree.
  it('nests 5,000 organizations under their faculties in one answer', async () => {
    const faculties = await mapInOrder(
      Array.from({ length: 50 }, (_, i) => i),
      (i) => t.createOrg('doan_co_so', `F${i}`, org.doan),
    );
    // A hundred units per statement: one round trip each, not two per unit (PostgreSQL is over the network).
    await withTransaction(t.db, async (tx) => {
      for (const f of faculties) {
        const units = Array.from({ length: 100 }, (_, j) => ({
          type: 'chi_doan' as const,
          code: `F${f}-${j}`,
          name: `F${f}-${j}`,
          parentId: f,
        }));
        await runQuery(tx.insert(organizations).values(units));
        await sqlRun(
          tx,
          sql`UPDATE organizations SET path = (SELECT p.path FROM organizations p WHERE p.id = ${f}) || id || '/' WHERE parent_id = ${f}`,
        );
      }
    });
    const res = await get('/api/organizations/tree');
    expect(res.status).toBe(200);
    const root = res.body.find((n: { id: number }) => n.id === org.doan);
    const built = root.children.filter((n: { code: string }) => /^F\d+$/.test(n.code));
    expect(built).toHaveLength(50);
    expect(built.every((f: { children: unknown[]; hasChildren: boolean }) => f.children.length === 100 && f.hasChildren)).toBe(true);
  });
});

describe('GET /organizations/stats', () => {
  it('answers every key with 0 when there are no members', async () => {
    const s = await get('/api/organizations/stats');
    expect(s.status).toBe(200);
    expect(s.body).toEqual({
      doanStats: {
        total: 4,
        doanTruong: 1,
        doanCoSo: 1,
        chiDoan: 2,
        members: { total: 0, doanTruong: 0, doanCoSo: 0, chiDoan: 0, both: 0, onlyDoanVien: 0, onlyHoiVien: 0, neither: 0 },
      },
      hoiStats: {
        total: 1,
        hoiSinhVienTruong: 1,
        lienChiHoi: 0,
        chiHoi: 0,
        members: { total: 0, hoiSinhVienTruong: 0, lienChiHoi: 0, chiHoi: 0, both: 0, onlyDoanVien: 0, onlyHoiVien: 0, neither: 0 },
      },
      clbStats: {
        total: 0,
        clbTruong: 0,
        clbKhoa: 0,
        members: { total: 0, clbTruong: 0, clbKhoa: 0, both: 0, onlyDoanVien: 0, onlyHoiVien: 0, neither: 0 },
      },
      totalMembers: 0,
      membershipBreakdown: { both: 0, onlyDoanVien: 0, onlyHoiVien: 0, neither: 0 },
      byUserType: {
        student: { total: 0, both: 0, onlyDoanVien: 0, onlyHoiVien: 0, neither: 0 },
        staff: { total: 0, both: 0, onlyDoanVien: 0, onlyHoiVien: 0, neither: 0 },
      },
    });
  });

  it('counts a user in several organizations once per type and once overall', async () => {
    const u = await t.createUser('SV4');
    await runQuery(
      t.db.insert(organizationMembers).values([
        { organizationId: org.cd, userId: u.id },
        { organizationId: org.cd2, userId: u.id },
        { organizationId: org.dcs, userId: u.id },
        { organizationId: org.hoi, userId: u.id },
      ]),
    );
    const s = await get('/api/organizations/stats');
    expect(s.body.doanStats.members).toEqual({
      total: 1,
      doanTruong: 0,
      doanCoSo: 1,
      chiDoan: 1,
      both: 0,
      onlyDoanVien: 0,
      onlyHoiVien: 0,
      neither: 1,
    });
    expect(s.body.hoiStats.members).toMatchObject({ total: 1, hoiSinhVienTruong: 1 });
    expect(s.body.totalMembers).toBe(1);
    expect(s.body.membershipBreakdown).toEqual({ both: 0, onlyDoanVien: 0, onlyHoiVien: 0, neither: 1 });
  });
});
