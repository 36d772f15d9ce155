import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { organizations } from '../db/tables/organizations';
import { makeTestApp, type TestApp } from '../test/harness';
import { addMember, insertUser } from './fixture';
import { listPage, searchWords, type ListFilter } from './list';
import { countedMatches } from './index-statements';
import { subtreeRange } from '../access/scope';
import { firstRow } from '../db/engine';
import { mapInOrder } from '../lib/in-order';

let t: TestApp;
let paths: Record<string, string>;

const pathOf = async (id: number) =>
  (await firstRow(t.db.select({ path: organizations.path }).from(organizations).where(eq(organizations.id, id))))!.path;

beforeAll(async () => {
  t = await makeTestApp();
  const root = await t.createOrg('doan_truong', 'LT-ROOT');
  const a = await t.createOrg('doan_co_so', 'LT-A', root);
  const a1 = await t.createOrg('chi_doan', 'LT-A1', a);
  const b = await t.createOrg('doan_co_so', 'LT-B', root);
  paths = { root: await pathOf(root), a: await pathOf(a), a1: await pathOf(a1), b: await pathOf(b) };
  const orgs = [root, a, a1, b, null];
  const kinds = ['student', 'staff'] as const;
  const statuses = ['none', 'doan_vien', 'hoi_vien', 'both'] as const;
  for (let i = 0; i < 60; i++) {
    const org = orgs[i % orgs.length];
    const id = await insertUser(
      t,
      {
        familyName: i % 3 ? 'Nguyễn Văn' : 'Trần Thị',
        givenName: `Số ${i}`,
        userType: kinds[i % 2],
        membershipStatus: statuses[i % 4],
        isActive: i % 7 !== 0,
      },
      org ?? undefined,
    );
    // Some users belong twice (the member must be counted once); some only formerly.
    if (i % 10 === 1) await addMember(t, id, b);
    if (i % 11 === 2 && org !== a1) await addMember(t, id, a1, false);
  }
});

describe('users list strategies', () => {
  const filters: [string, ListFilter][] = [
    ['subtree', { words: [], paths: [] }],
    ['subtree + words', { words: ['nguyen', 'van'], paths: [] }],
    ['subtree + type + status', { words: [], userType: 'staff', membershipStatus: 'both', paths: [] }],
    ['subtree + active', { words: [], isActive: true, paths: [] }],
  ];
  for (const [name, f] of filters) {
    for (const scope of [['root'], ['a'], ['a1'], ['b'], ['a', 'b']]) {
      it(`${name} in ${scope.join('+')}: the index, collecting members first and probing each user agree`, async () => {
        const filter = { ...f, paths: scope.map((s) => paths[s]!) };
        const key = `${name}:${scope.join('+')}`;
        const viaIn = await mapInOrder([0, 5, 10], (offset) => listPage(t.db, filter, `${key}:in`, 5, offset, 'in'));
        const viaExists = await mapInOrder([0, 5, 10], (offset) => listPage(t.db, filter, `${key}:exists`, 5, offset, 'exists'));
        const viaIndex = await mapInOrder([0, 5, 10], (offset) => listPage(t.db, filter, `${key}:index`, 5, offset, 'index'));
        const auto = await listPage(t.db, filter, `${key}:auto`, 100, 0);
        const idsOf = (r: { rows: { id: number }[] }) => r.rows.map((x) => x.id);
        expect(viaIn.map(idsOf)).toEqual(viaExists.map(idsOf));
        expect(viaIn[0]!.total).toBe(viaExists[0]!.total);
        expect(viaIndex.map(idsOf)).toEqual(viaIn.map(idsOf));
        expect(viaIndex[0]!.total).toBe(viaIn[0]!.total);
        expect(auto.total).toBe(viaIn[0]!.total);
        expect(idsOf(auto)).toEqual([...idsOf(auto)].sort((x, y) => y - x));
        expect(new Set(idsOf(auto)).size).toBe(auto.rows.length);
        expect(auto.rows.length).toBe(auto.total);
        expect(auto.total).toBeGreaterThan(0);
      });
    }
  }

  it('an empty scope matches nobody', async () => {
    expect(await listPage(t.db, { words: [], paths: [] }, 'empty', 10, 0)).toEqual({ rows: [], total: 0, capped: false });
  });
});

describe('searchWords', () => {
  it('strips accents, lower-cases and de-duplicates words', () => {
    expect(searchWords('  Nguyễn   VĂN  nguyen Đức ')).toEqual(['nguyen', 'van', 'duc']);
    expect(searchWords('')).toEqual([]);
    expect(searchWords(undefined)).toEqual([]);
  });
});

describe('subtreeRange', () => {
  it('covers an organization and its descendants, never a sibling sharing a digit prefix', () => {
    const [from, to] = subtreeRange('/1/3/');
    const inside = (p: string) => p >= from && p < to;
    expect(['/1/3/', '/1/3/12/', '/1/3/12/99/'].map(inside)).toEqual([true, true, true]);
    expect(['/1/', '/1/30/', '/1/31/5/', '/1/4/', '/13/', '/2/3/'].map(inside)).toEqual([false, false, false, false, false, false]);
  });
});

describe('GET /api/users rows carry where each user is an active member', () => {
  it('each organization with its ancestors, former memberships left out, [] for nobody', async () => {
    const root = await t.createOrg('doan_truong', 'MO-ROOT');
    const unit = await t.createOrg('doan_co_so', 'MO-A', root);
    const cell = await t.createOrg('chi_doan', 'MO-A1', unit);
    const member = await insertUser(t, { familyName: 'Lê', givenName: 'Memberof' }, cell);
    await addMember(t, member, root);
    await addMember(t, member, unit, false);
    const loner = await insertUser(t, { familyName: 'Lê', givenName: 'Loner' });
    const res = await t.request('GET', '/api/users?search=le&limit=100', { token: t.adminToken });
    expect(res.status).toBe(200);
    const rows = res.body.users as { id: number; memberOf: { organizationId: number; ancestorIds: number[] }[] }[];
    const of = (id: number) => rows.find((r) => r.id === id)!.memberOf;
    expect([...of(member)].sort((x, y) => x.organizationId - y.organizationId)).toEqual([
      { organizationId: root, ancestorIds: [] },
      { organizationId: cell, ancestorIds: [root, unit] },
    ]);
    expect(of(loner)).toEqual([]);
  });
});

describe('a search counts its matches up to a cap', () => {
  it('says "more than" past the cap, still pages past it, and counts lists without words and bulk checks in full', async () => {
    const kept = countedMatches.max;
    countedMatches.max = 25;
    try {
      // 40 of the 60 users above are Nguyễn Văn; every one is in the global admin's reach.
      const first = await t.request('GET', '/api/users?search=nguyen%20van&limit=5', { token: t.adminToken });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ total: 25, totalCapped: true, totalPages: 5 });
      const past = await t.request('GET', '/api/users?search=nguyen%20van&limit=5&page=7', { token: t.adminToken });
      expect(past.body.users).toHaveLength(5);
      expect(past.body.totalCapped).toBe(true);
      const few = await t.request('GET', '/api/users?search=tran%20thi&limit=5', { token: t.adminToken });
      expect(few.body.total).toBe(20);
      expect(few.body.totalCapped).toBeUndefined();
      const all = await t.request('GET', '/api/users?limit=5', { token: t.adminToken });
      expect(all.body.total).toBeGreaterThan(60);
      expect(all.body.totalCapped).toBeUndefined();
      const words = { words: searchWords('nguyen van'), paths: null };
      expect((await listPage(t.db, words, 'cap:capped', 5, 0)).total).toBe(25);
      expect(await listPage(t.db, words, 'cap:exact', 5, 0, undefined, true)).toMatchObject({ total: 40, capped: false });
    } finally {
      countedMatches.max = kept;
    }
  });
});
