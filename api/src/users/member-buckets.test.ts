/**
 * A users list narrowed to a subtree follows who is in the subtree (users/list.ts countedTables,
 * drizzle-pg 0036: the member_scopes rows under its second-level unit, or of the top-level units; SQLite
 * 0052: triggers on the memberships): a membership written under another faculty, or one that leaves the
 * subtree's members as they were, keeps its count and checkpoints. Whatever is kept, a membership another process writes
 * is in the next answer of every list it belongs to.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations } from '../db/tables/organizations';
import { firstRow } from '../db/engine';
import { currentStamp, inReadEpoch } from '../lib/freshness';
import { makeTestApp, type TestApp } from '../test/harness';
import { elsewhere, insertUser } from './fixture';
import { listPage, type ListFilter } from './list';
import { memberBucket, scopeVersion } from './scope-version';

const dir = mkdtempSync(join(tmpdir(), 'member-buckets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let t: TestApp;
const units: Record<string, { id: number; path: string }> = {};

beforeAll(async () => {
  t = await makeTestApp({}, join(dir, 'buckets.db'));
  const add = async (name: string, type: 'doan_truong' | 'doan_co_so' | 'chi_doan', parent?: string) => {
    const id = await t.createOrg(type, `MB-${name}`, parent ? units[parent]!.id : null);
    const { path } = (await firstRow(t.db.select({ path: organizations.path }).from(organizations).where(eq(organizations.id, id))))!;
    units[name] = { id, path };
  };
  await add('root', 'doan_truong');
  await add('a', 'doan_co_so', 'root');
  await add('a1', 'chi_doan', 'a');
  await add('b', 'doan_co_so', 'root');
  await add('b1', 'chi_doan', 'b');
  for (let i = 0; i < 5; i++) await insertUser(t, { familyName: 'Nguyễn Văn', givenName: `A${i}` }, units.a1!.id);
  for (let i = 0; i < 4; i++) await insertUser(t, { familyName: 'Nguyễn Thị', givenName: `B${i}` }, units.b1!.id);
});

/** The list's total and first page, as a request in a read epoch of its own reads them. */
const list = (unit: string, words = ['nguyen']) => {
  const f: ListFilter = { words, paths: [units[unit]!.path] };
  return inReadEpoch(() => listPage(t.db, f, `mb:${unit}:${words.join(' ')}`, 50, 0));
};

/**
 * Each faculty's and the university's total, searched and not: every member here is a Nguyễn, so the
 * total without words (the trigger-kept facet counts, users/facet-total.ts) must be the same number.
 */
async function totals() {
  const of = async (words: string[]) => ({
    a: (await list('a', words)).total,
    b: (await list('b', words)).total,
    root: (await list('root', words)).total,
  });
  const searched = await of(['nguyen']);
  expect(await of([])).toEqual(searched);
  return searched;
}

describe('membership buckets', () => {
  it("a unit's bucket is its second-level ancestor's", () => {
    expect(memberBucket('/1/')).toBeNull();
    expect(memberBucket('/1/5/')).toBe(5);
    expect(memberBucket('/1/21/40/')).toBe(5);
    expect([scopeVersion('/1/'), scopeVersion('/1/21/40/')]).toEqual(['member_scopes:top', 'member_scopes:5']);
  });

  it('a member added by another process is in the next count of its lists; other faculties keep theirs', async () => {
    expect((await list('a')).total).toBe(5);
    expect((await list('b')).total).toBe(4);
    expect((await list('root')).total).toBe(9);
    const other = scopeVersion(units.b!.path);
    const before = await inReadEpoch(() => currentStamp(t.db, [other]));
    const newcomer = await insertUser(t, { familyName: 'Nguyễn Hữu', givenName: 'C' });
    await elsewhere(
      t.db,
      `INSERT INTO organization_members (user_id, organization_id, is_active, role, joined_at) VALUES (${newcomer}, ${units.a1!.id}, true, 'member', 0)`,
    );
    const a = await list('a');
    expect(a.total).toBe(6);
    expect(a.rows[0]!.id).toBe(newcomer);
    expect((await list('a1')).total).toBe(6);
    expect((await list('root')).total).toBe(10);
    expect((await list('b')).total).toBe(4);
    const after = await inReadEpoch(() => currentStamp(t.db, [other]));
    // Faculty B's lists are kept (unless both faculties share a bucket).
    if (scopeVersion(units.a!.path) !== other) expect(after).toBe(before);
    // A membership of the top-level unit for someone already in its tree changes none of its subtrees.
    const top = await inReadEpoch(() => currentStamp(t.db, ['member_scopes:top']));
    await elsewhere(
      t.db,
      `INSERT INTO organization_members (user_id, organization_id, is_active, role, joined_at) VALUES (${newcomer}, ${units.root!.id}, true, 'member', 0)`,
    );
    expect(await inReadEpoch(() => currentStamp(t.db, ['member_scopes:top', other]))).toBe(`${top},${after}`);
    expect((await list('root')).total).toBe(10);
    // And one leaving faculty B in another process is gone from B's next list.
    const leaving = (await list('b')).rows[0]!.id;
    await elsewhere(t.db, `DELETE FROM organization_members WHERE user_id = ${leaving} AND organization_id = ${units.b1!.id}`);
    expect((await list('b')).total).toBe(3);
    expect((await list('root')).total).toBe(9);
  });

  it('a second chi đoàn keeps the lists of the subtrees the member was already in; leaving the last one moves them', async () => {
    const someone = await insertUser(t, { familyName: 'Nguyễn Đức', givenName: 'D' }, units.a1!.id);
    const stamps = () => inReadEpoch(() => Promise.all(['a', 'root'].map((u) => currentStamp(t.db, [scopeVersion(units[u]!.path)]))));
    const start = await totals();
    const kept = await stamps();
    await elsewhere(
      t.db,
      `INSERT INTO organization_members (user_id, organization_id, is_active, role, joined_at) VALUES (${someone}, ${units.b1!.id}, true, 'member', 0)`,
    );
    expect(await totals()).toEqual({ a: start.a, b: start.b + 1, root: start.root });
    // Faculty A and the university gained no one: their counts stay cached (unless B shares A's bucket).
    if (scopeVersion(units.a!.path) !== scopeVersion(units.b!.path)) expect(await stamps()).toEqual(kept);
    await elsewhere(t.db, `DELETE FROM organization_members WHERE user_id = ${someone} AND organization_id = ${units.a1!.id}`);
    expect(await totals()).toEqual({ a: start.a - 1, b: start.b + 1, root: start.root });
    const [, rootKept] = await stamps();
    expect(rootKept).toBe(kept[1]);
    await elsewhere(t.db, `DELETE FROM organization_members WHERE user_id = ${someone}`);
    expect(await totals()).toEqual({ a: start.a - 1, b: start.b, root: start.root - 1 });
    expect((await stamps())[1]).not.toBe(kept[1]);
  });

  it('a membership ended, started again or moved to another unit by another process is in the next count', async () => {
    const someone = await insertUser(t, { familyName: 'Nguyễn Minh', givenName: 'E' }, units.a1!.id);
    const start = await totals();
    const set = (change: string) => elsewhere(t.db, `UPDATE organization_members SET ${change} WHERE user_id = ${someone}`);
    await set('is_active = false');
    expect(await totals()).toEqual({ a: start.a - 1, b: start.b, root: start.root - 1 });
    await set('is_active = true');
    expect(await totals()).toEqual(start);
    await set(`organization_id = ${units.b1!.id}`);
    expect(await totals()).toEqual({ a: start.a - 1, b: start.b + 1, root: start.root });
  });
});
