import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/harness';
import { orgWorld, type OrgTree } from './fixture';
import { organizationMembers } from '../db/tables/organizations';
import { runQuery } from '../db/engine';

let t: TestApp;
let org: OrgTree<'lch'>;

beforeEach(async () => {
  ({ t, org } = await orgWorld(['lch'], { dcs: 'DCS-CNTT', cd: 'CD-1', lch: 'LCH-CNTT' }));
});

const as = (token: string) => ({ token });

describe('organization writes and rules', () => {
  it('creates under the default parent by type and refuses a wrong parent or a duplicate code', async () => {
    const club = await t.request('POST', '/api/organizations', {
      ...as(t.adminToken),
      body: { name: 'CLB Tiếng Anh', code: 'CLB-TA', type: 'clb_truong' },
    });
    expect(club.status).toBe(201);
    expect(club.body.parentId).toBe(org.hoi);
    const wrong = await t.request('POST', '/api/organizations', {
      ...as(t.adminToken),
      body: { name: 'Chi đoàn', code: 'X', type: 'chi_doan', parentId: org.lch },
    });
    expect(wrong.status).toBe(400);
    const needsParent = await t.request('POST', '/api/organizations', {
      ...as(t.adminToken),
      body: { name: 'Chi hội', code: 'CH', type: 'chi_hoi' },
    });
    expect(needsParent.status).toBe(400);
    const dup = await t.request('POST', '/api/organizations', {
      ...as(t.adminToken),
      body: { name: 'Again', code: 'CLB-TA', type: 'clb_truong' },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toContain('Mã');
    const bad = await t.request('POST', '/api/organizations', { ...as(t.adminToken), body: { name: '', code: 'Y', type: 'nope' } });
    expect(bad.status).toBe(400);
  });

  it('refuses to delete an organization with children or members, and deletes an empty one', async () => {
    const withKids = await t.request('DELETE', `/api/organizations/${org.dcs}`, as(t.adminToken));
    expect(withKids.status).toBe(409);
    expect(withKids.body.message).toContain('tổ chức con');
    const u = await t.createUser('SV1');
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: org.cd, userId: u.id }));
    const withMembers = await t.request('DELETE', `/api/organizations/${org.cd}`, as(t.adminToken));
    expect(withMembers.status).toBe(409);
    expect(withMembers.body.message).toContain('thành viên');
    expect((await t.request('DELETE', `/api/organizations/${org.lch}`, as(t.adminToken))).status).toBe(200);
    expect((await t.request('GET', `/api/organizations/${org.lch}`, as(t.adminToken))).status).toBe(404);
  });

  it('updates name and code, with 409 on a taken code', async () => {
    const ok = await t.request('PATCH', `/api/organizations/${org.cd}`, { ...as(t.adminToken), body: { name: 'Chi đoàn 22CNTT1' } });
    expect(ok.status).toBe(200);
    expect(ok.body.name).toBe('Chi đoàn 22CNTT1');
    const cd2 = await t.createOrg('chi_doan', 'CD-2', org.dcs);
    const clash = await t.request('PATCH', `/api/organizations/${cd2}`, { ...as(t.adminToken), body: { code: 'CD-1' } });
    expect(clash.status).toBe(409);
  });
});

describe('reads', () => {
  it('tree nests children with member counts; breadcrumb and by-type-code find the node', async () => {
    const u = await t.createUser('SV2');
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: org.cd, userId: u.id }));
    const tree = await t.request('GET', '/api/organizations/tree', as(t.adminToken));
    expect(tree.status).toBe(200);
    const root = tree.body.find((n: { id: number }) => n.id === org.doan);
    expect(root.hasChildren).toBe(true);
    expect(root.children[0].children[0]).toMatchObject({ id: org.cd, memberCount: 1, hasChildren: false });
    const crumbs = await t.request('GET', `/api/organizations/${org.cd}/breadcrumb`, as(t.adminToken));
    expect(crumbs.body.map((b: { id: number }) => b.id)).toEqual([org.doan, org.dcs, org.cd]);
    const byCode = await t.request('GET', '/api/organizations/by-type-code/chi_doan/CD-1', as(t.adminToken));
    expect(byCode.body.id).toBe(org.cd);
    const members = await t.request('GET', `/api/organizations/${org.cd}/members?page=1&limit=10`, as(t.adminToken));
    expect(members.body).toMatchObject({ total: 1, totalPages: 1 });
    expect(members.body.members[0].user.code).toBe('SV2');
    expect(members.body.members[0].role).toBe('member');
  });

  it('serves the tree gzipped to clients that accept it, with the same content', async () => {
    const plain = await t.request('GET', '/api/organizations/tree', as(t.adminToken));
    const res = await t.app.request('/api/organizations/tree', {
      headers: { authorization: `Bearer ${t.adminToken}`, 'accept-encoding': 'gzip, deflate' },
    });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const { gunzipSync } = await import('node:zlib');
    expect(JSON.parse(gunzipSync(Buffer.from(await res.arrayBuffer())).toString())).toEqual(plain.body);
    // A write invalidates the cached tree.
    await t.request('PATCH', `/api/organizations/${org.cd}`, { ...as(t.adminToken), body: { name: 'Đổi tên' } });
    const after = await t.request('GET', '/api/organizations/tree', as(t.adminToken));
    expect(JSON.stringify(after.body)).toContain('Đổi tên');
  });

  it('stats split members into both / only đoàn / only hội / neither', async () => {
    const a = await t.createUser('A');
    const b = await t.createUser('B');
    const { users } = await import('../db/tables/users');
    await runQuery(t.db.update(users).set({ membershipStatus: 'both' }).where(eq(users.id, a.id)));
    await runQuery(t.db.update(users).set({ membershipStatus: 'hoi_vien' }).where(eq(users.id, b.id)));
    await runQuery(
      t.db.insert(organizationMembers).values([
        { organizationId: org.cd, userId: a.id },
        { organizationId: org.lch, userId: b.id },
      ]),
    );
    const s = await t.request('GET', '/api/organizations/stats', as(t.adminToken));
    expect(s.status).toBe(200);
    expect(s.body.doanStats).toMatchObject({
      total: 3,
      doanTruong: 1,
      doanCoSo: 1,
      chiDoan: 1,
      members: { total: 1, chiDoan: 1, doanTruong: 0 },
    });
    expect(s.body.hoiStats).toMatchObject({ total: 2, lienChiHoi: 1, chiHoi: 0, members: { total: 1, lienChiHoi: 1 } });
    expect(s.body.clbStats).toMatchObject({ total: 0, clbTruong: 0, clbKhoa: 0 });
    expect(s.body.totalMembers).toBe(2);
    expect(s.body.membershipBreakdown).toEqual({ both: 1, onlyDoanVien: 0, onlyHoiVien: 1, neither: 0 });
  });
});

describe('memberships', () => {
  it('adds with parents, refuses a duplicate, removes safely only when no child membership remains', async () => {
    const u = await t.createUser('SV3');
    const add = await t.request('POST', `/api/organizations/${org.cd}/members/${u.id}/with-parents`, as(t.adminToken));
    expect(add.status).toBe(201);
    expect(add.body.added).toBe(3);
    const again = await t.request('POST', `/api/organizations/${org.cd}/members/${u.id}`, { ...as(t.adminToken), body: {} });
    expect(again.status).toBe(400);
    const unsafe = await t.request('DELETE', `/api/organizations/${org.dcs}/members/${u.id}/safely`, as(t.adminToken));
    expect(unsafe.status).toBe(409);
    // ?from= the chi đoàn itself: only it (by default its now childless parents would go too, removal.test.ts).
    expect((await t.request('DELETE', `/api/organizations/${org.cd}/members/${u.id}?from=${org.cd}`, as(t.adminToken))).status).toBe(200);
    expect((await t.request('DELETE', `/api/organizations/${org.dcs}/members/${u.id}/safely`, as(t.adminToken))).status).toBe(200);
    const missing = await t.request('POST', `/api/organizations/${org.cd}/members/99999`, { ...as(t.adminToken), body: {} });
    expect(missing.status).toBe(404);
  });

  it('adds by user code and bulk-removes', async () => {
    const u = await t.createUser('SV4');
    const byCode = await t.request('POST', `/api/organizations/${org.cd}/member/SV4`, { ...as(t.adminToken), body: { userCode: 'SV4' } });
    expect(byCode.status).toBe(201);
    const unknown = await t.request('POST', `/api/organizations/${org.cd}/member/NOPE`, { ...as(t.adminToken), body: {} });
    expect(unknown.status).toBe(404);
    const bulk = await t.request('DELETE', `/api/organizations/${org.cd}/members/bulk-remove`, {
      ...as(t.adminToken),
      body: { userIds: [u.id] },
    });
    expect(bulk.body.removedCount).toBe(1);
  });

  it('PUT /users/:id/organizations adds parents, removes dropped ones and keeps parents of kept ones', async () => {
    const u = await t.createUser('SV5');
    const first = await t.request('PUT', `/api/users/${u.id}/organizations`, {
      ...as(t.adminToken),
      body: { organizationIds: [org.cd, org.lch] },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ added: 5, removed: 0, keptParents: 0 });
    const second = await t.request('PUT', `/api/users/${u.id}/organizations`, { ...as(t.adminToken), body: { organizationIds: [org.cd] } });
    expect(second.body).toMatchObject({ added: 0, removed: 2, keptParents: 2 });
    const bad = await t.request('PUT', `/api/users/${u.id}/organizations`, { ...as(t.adminToken), body: { organizationIds: [424242] } });
    expect(bad.status).toBe(400);
  });
});

describe('type and parent rules (000 §5)', () => {
  const create = (body: Record<string, unknown>) => t.request('POST', '/api/organizations', { ...as(t.adminToken), body });

  it('places doan_co_so, lien_chi_hoi and clb_truong under the root of their branch by default', async () => {
    const d = await create({ name: 'Đoàn khoa Kinh tế', code: 'KT', type: 'doan_co_so' });
    expect(d.status).toBe(201);
    expect(d.body).toMatchObject({ parentId: org.doan, level: 2, type: 'doan_co_so', description: null });
    const l = await create({ name: 'Liên chi hội Kinh tế', code: 'KT', type: 'lien_chi_hoi', description: 'Khoa Kinh tế' });
    expect(l.body).toMatchObject({ parentId: org.hoi, description: 'Khoa Kinh tế' });
    const crumbs = await t.request('GET', `/api/organizations/${d.body.id}/breadcrumb`, as(t.adminToken));
    expect(crumbs.body.map((b: { id: number }) => b.id)).toEqual([org.doan, d.body.id]);
  });

  it('needs an explicit parent for chi_doan, chi_hoi and clb_khoa', async () => {
    for (const type of ['chi_doan', 'chi_hoi', 'clb_khoa']) {
      const res = await create({ name: 'X', code: `X-${type}`, type });
      expect(res.status, type).toBe(400);
      expect(res.body.message).toContain('cấp trên');
    }
    expect((await create({ name: 'CLB Khoa', code: 'CK', type: 'clb_khoa', parentId: org.lch })).status).toBe(201);
    expect((await create({ name: 'Chi hội', code: 'CH', type: 'chi_hoi', parentId: org.lch })).status).toBe(201);
    expect((await create({ name: 'Chi đoàn', code: 'CD-9', type: 'chi_doan', parentId: org.dcs })).status).toBe(201);
  });

  it('refuses a parent for a root, a parent of the wrong type and an unknown parent', async () => {
    expect((await create({ name: 'Đoàn trường 2', code: 'DT2', type: 'doan_truong', parentId: org.hoi })).status).toBe(400);
    expect((await create({ name: 'Đoàn trường 2', code: 'DT2', type: 'doan_truong' })).status).toBe(201);
    const wrong = await create({ name: 'CLB', code: 'C', type: 'clb_truong', parentId: org.doan });
    expect(wrong.status).toBe(400);
    expect((await create({ name: 'Chi hội', code: 'CH', type: 'chi_hoi', parentId: org.dcs })).status).toBe(400);
    expect((await create({ name: 'Chi đoàn', code: 'CD', type: 'chi_doan', parentId: 424242 })).status).toBe(400);
  });

  it('keeps a code unique per type only, and rejects missing fields', async () => {
    expect((await create({ name: 'Chi đoàn', code: 'DCS-CNTT', type: 'chi_doan', parentId: org.dcs })).status).toBe(201);
    const dup = await create({ name: 'Chi đoàn khác', code: 'CD-1', type: 'chi_doan', parentId: org.dcs });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toMatch(/^Mã tổ chức .*CD-1.* đã tồn tại$/);
    for (const body of [
      {},
      { name: 'X', type: 'chi_doan', parentId: org.dcs },
      { code: 'X', type: 'chi_doan', parentId: org.dcs },
      { name: 'X', code: 'X' },
      { name: 'X', code: 'X', type: 'chi_doan', parentId: 'abc' },
    ]) {
      expect((await create(body)).status, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('PATCH and DELETE edge cases', () => {
  it('PATCH: 404 unknown, 400 blank name, 400 a type that does not fit the parent, search follows the new name', async () => {
    expect((await t.request('PATCH', '/api/organizations/424242', { ...as(t.adminToken), body: { name: 'x' } })).status).toBe(404);
    expect((await t.request('PATCH', `/api/organizations/${org.cd}`, { ...as(t.adminToken), body: { name: '  ' } })).status).toBe(400);
    expect((await t.request('PATCH', `/api/organizations/${org.cd}`, { ...as(t.adminToken), body: { type: 'chi_hoi' } })).status).toBe(400);
    expect(
      (await t.request('PATCH', `/api/organizations/${org.dcs}`, { ...as(t.adminToken), body: { type: 'lien_chi_hoi' } })).status,
    ).toBe(400);
    const renamed = await t.request('PATCH', `/api/organizations/${org.cd}`, {
      ...as(t.adminToken),
      body: { name: 'Chi đoàn Điện tử', description: 'mới' },
    });
    expect(renamed.body).toMatchObject({ name: 'Chi đoàn Điện tử', code: 'CD-1', description: 'mới', parentId: org.dcs });
    const found = await t.request('GET', `/api/organizations?search=${encodeURIComponent('dien tu')}`, as(t.adminToken));
    expect(found.body.data.map((o: { id: number }) => o.id)).toEqual([org.cd]);
  });

  it('DELETE: 404 unknown, and the exact refusal messages', async () => {
    expect((await t.request('DELETE', '/api/organizations/424242', as(t.adminToken))).status).toBe(404);
    expect((await t.request('DELETE', `/api/organizations/${org.dcs}`, as(t.adminToken))).body.message).toBe(
      'Không thể xóa tổ chức còn tổ chức con',
    );
    const u = await t.createUser('SV9');
    await runQuery(t.db.insert(organizationMembers).values({ organizationId: org.cd, userId: u.id }));
    expect((await t.request('DELETE', `/api/organizations/${org.cd}`, as(t.adminToken))).body.message).toBe(
      'Không thể xóa tổ chức còn thành viên',
    );
  });
});
