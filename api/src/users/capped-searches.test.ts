/**
 * A search whose narrower form (inside a subtree, with more words, a longer prefix or more column
 * filters) already passed the count's cap is capped without a count of its own (capped-searches.ts),
 * and answers what counting it answers; a narrower search whose tables changed since proves nothing.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { firstRow, runQuery } from '../db/engine';
import { makeTestApp, type TestApp } from '../test/harness';
import { insertUser } from './fixture';
import { listPage, type ListFilter } from './list';
import { countedMatches } from './index-statements';
import { cappedSearches, includes, provenCapped } from './capped-searches';

let t: TestApp;
let root: string;
let a: string;
let aId: number;
const before = countedMatches.max;

const pathOf = async (id: number) =>
  (await firstRow(t.db.select({ path: organizations.path }).from(organizations).where(eq(organizations.id, id))))!.path;

beforeAll(async () => {
  countedMatches.max = 3;
  t = await makeTestApp();
  const r = await t.createOrg('doan_truong', 'CS-ROOT');
  aId = await t.createOrg('doan_co_so', 'CS-A', r);
  root = await pathOf(r);
  a = await pathOf(aId);
  // Five Nguyễn Văn in A, two Nguyễn Thị outside any unit, three Trần Văn at the root.
  for (let i = 0; i < 5; i++) await insertUser(t, { familyName: 'Nguyễn Văn', givenName: `A${i}`, userType: 'student' }, aId);
  for (let i = 0; i < 2; i++) await insertUser(t, { familyName: 'Nguyễn Thị', givenName: `B${i}`, userType: 'staff' });
  for (let i = 0; i < 3; i++) await insertUser(t, { familyName: 'Trần Văn', givenName: `C${i}`, userType: 'staff' }, r);
});
afterAll(() => {
  countedMatches.max = before;
});

const f = (words: string[], paths: string[] | null, over: Partial<ListFilter> = {}): ListFilter => ({ words, paths, ...over });
let n = 0;
/** A page as the list asks it (a fresh cache key each time), and the same page counted exactly. */
async function both(filter: ListFilter) {
  const key = `cs:${n++}`;
  const spared = cappedSearches.spared;
  const listed = await listPage(t.db, filter, key, 4, 0);
  const exact = await listPage(t.db, filter, `${key}:exact`, 4, 0, undefined, true);
  return { listed, exact, spared: cappedSearches.spared - spared };
}

describe('capped searches', () => {
  it('tells which searches include which', () => {
    expect(includes(f(['nguyen'], null), f(['nguyen', 'van'], [a]))).toBe(true);
    expect(includes(f(['ng'], [root]), f(['nguyen'], [a]))).toBe(true);
    expect(includes(f(['nguyen'], [a]), f(['nguyen'], [root]))).toBe(false);
    expect(includes(f(['nguyen', 'van'], null), f(['nguyen'], null))).toBe(false);
    expect(includes(f(['nguyen'], null, { userType: 'staff' }), f(['nguyen'], null))).toBe(false);
    expect(includes(f(['nguyen'], null), f(['nguyen'], null, { userType: 'staff' }))).toBe(true);
    // A word with punctuation is a phrase of pieces: only the same word is known to include it.
    expect(includes(f(['ng'], null), f(['nguyen.van'], null))).toBe(false);
    expect(includes(f(['nguyen.van'], null), f(['nguyen.van'], [a]))).toBe(true);
  });

  it('caps a broader search without counting it, with the page counting gives', async () => {
    const narrow = await both(f(['nguyen', 'van'], [a]));
    expect(narrow.listed.capped).toBe(true);
    expect(narrow.spared).toBe(0);
    for (const broad of [f(['nguyen'], [a]), f(['nguyen'], [root]), f(['nguyen'], null), f(['ng'], null)]) {
      const r = await both(broad);
      expect(r.spared).toBe(1);
      expect(r.listed).toEqual({ ...r.exact, total: countedMatches.max, capped: true });
    }
  });

  it('counts what no capped search includes', async () => {
    // Three Trần Văn: not past the cap of 3, and no Nguyễn search includes them.
    const r = await both(f(['tran'], null));
    expect(r.spared).toBe(0);
    expect(r.listed).toEqual(r.exact);
    expect(r.listed).toMatchObject({ total: 3, capped: false });
    const staff = await both(f(['nguyen'], null, { userType: 'staff' }));
    expect(staff.spared).toBe(0);
    expect(staff.listed).toMatchObject({ total: 2, capped: false });
  });

  it('proves nothing once a table the narrower count read has changed', async () => {
    expect(await provenCapped(t.db, f(['nguyen'], [root]))).toBe(true);
    // The memberships in A end: the Nguyễn Văn searches inside the tree now find nobody.
    await runQuery(t.db.update(organizationMembers).set({ isActive: false }).where(eq(organizationMembers.organizationId, aId)));
    expect(await provenCapped(t.db, f(['nguyen'], [root]))).toBe(false);
    const r = await both(f(['nguyen'], [root]));
    expect(r.spared).toBe(0);
    expect(r.listed).toMatchObject({ total: 0, capped: false });
  });
});
