/**
 * A costly search's count is shared by the processes of a deployment (lib/shared-totals.ts): one app
 * counts it, another one on the same database serves it from shared_totals while the table versions
 * it was counted under are current, and counts again after a write by either app or by anyone else.
 * PostgreSQL only (SQLite reads nothing shared); the small scope shares nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { organizations } from '../db/tables/organizations';
import { firstRow } from '../db/engine';
import { closePgDb, isPg } from '../db/postgres';
import { inReadEpoch } from '../lib/freshness';
import { sharedTotalStats } from '../lib/shared-totals';
import { makeTestApp, TEST_ENGINE, type TestApp } from '../test/harness';
import { elsewhere, insertUser } from './fixture';
import { listPage, sharedCounts, type ListFilter } from './list';
import { countedMatches, sortedPages } from './index-statements';

let dir: string;
let one: TestApp;
let two: TestApp;
let root: string;
let unit: string;
let rootId: number;
let classId: number;
const before = { cap: countedMatches.max, sorted: sortedPages.max, from: sharedCounts.from };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'doanhoi-shared-'));
  const file = join(dir, 'app.db');
  one = await makeTestApp({}, file);
  two = await makeTestApp({}, file);
  rootId = await one.createOrg('doan_truong', 'SH-ROOT');
  classId = await one.createOrg('chi_doan', 'SH-C', rootId);
  const pathOf = async (id: number) =>
    (await firstRow(one.db.select({ path: organizations.path }).from(organizations).where(eq(organizations.id, id))))!.path;
  root = await pathOf(rootId);
  unit = await pathOf(classId);
  // Four Nguyễn Văn at the root, two Nguyễn Thị in the class (a member of the root's subtree too).
  for (let i = 0; i < 4; i++) await insertUser(one, { familyName: 'Nguyễn Văn', givenName: `R${i}` }, rootId);
  for (let i = 0; i < 2; i++) await insertUser(one, { familyName: 'Nguyễn Thị', givenName: `C${i}` }, classId);
});
afterAll(async () => {
  countedMatches.max = before.cap;
  sortedPages.max = before.sorted;
  sharedCounts.from = before.from;
  for (const t of [one, two])
    if (isPg(t.db)) await closePgDb(t.db);
    else t.db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  countedMatches.max = before.cap;
  sortedPages.max = before.sorted;
  // The root's subtree (six members) is costly here; the class's (two) is not.
  sharedCounts.from = 5;
});

const search = (words: string[], paths: string[] | null): ListFilter => ({ words, paths });
/** A page as a request of `t` asks for it (a read epoch of its own), with the hits it made. */
async function page(t: TestApp, f: ListFilter, key: string) {
  const hits = sharedTotalStats.hits;
  const r = await inReadEpoch(() => listPage(t.db, f, key, 3, 0));
  return { total: r.total, capped: r.capped, ids: r.rows.map((u) => u.id), hits: sharedTotalStats.hits - hits };
}
/** The same page counted exactly, as the tests comparing strategies count it (no cache, no sharing). */
async function exact(t: TestApp, f: ListFilter) {
  const r = await inReadEpoch(() => listPage(t.db, f, `exact:${Math.random()}`, 3, 0, 'exists', true));
  return { total: r.total, ids: r.rows.map((u) => u.id) };
}

describe.skipIf(TEST_ENGINE !== 'pg')('shared search counts', () => {
  it("serves one app's count of a costly search to another app while nothing changed", async () => {
    const f = search(['nguyen'], [root]);
    const stored = sharedTotalStats.stored;
    const first = await page(one, f, 'sh:1');
    expect(first).toMatchObject({ total: 6, capped: false, hits: 0 });
    expect(sharedTotalStats.stored).toBe(stored + 1);
    const second = await page(two, f, 'sh:1');
    expect(second).toEqual({ ...first, hits: 1 });
    expect({ total: second.total, ids: second.ids }).toEqual(await exact(two, f));
  });

  it('counts again after a write by either app, or by another connection', async () => {
    const f = search(['nguyen'], [root]);
    await page(one, f, 'sh:2');
    // A write by the app that counted: the other app's next read counts it afresh.
    await insertUser(one, { familyName: 'Nguyễn Hữu', givenName: 'W1' }, rootId);
    const afterOne = await page(two, f, 'sh:2');
    expect(afterOne).toMatchObject({ total: 7, hits: 0 });
    expect({ total: afterOne.total, ids: afterOne.ids }).toEqual(await exact(two, f));
    // A write by the app that read it: the first app's next read neither keeps its own count nor takes the stale row.
    await insertUser(two, { familyName: 'Nguyễn Hữu', givenName: 'W2' }, rootId);
    const afterTwo = await page(one, f, 'sh:2');
    expect(afterTwo).toMatchObject({ total: 8, hits: 0 });
    // A write behind both apps' backs (another process): the next request of either counts it, and
    // the other one's is served that count.
    const id = afterTwo.ids[0]!;
    await elsewhere(one.db, `UPDATE organization_members SET is_active = false WHERE user_id = ${id}`);
    const counted = await page(two, f, 'sh:2');
    expect(counted).toMatchObject({ total: 7, hits: 0 });
    expect(counted.ids).not.toContain(id);
    expect(await page(one, f, 'sh:2')).toEqual({ ...counted, hits: 1 });
  });

  it('shares a capped count with the page counted with it', async () => {
    // As in production, a capped count has more matches than a page sorted from all of them (index-statements.ts).
    countedMatches.max = 3;
    sortedPages.max = 2;
    const f = search(['nguyen'], [root]);
    const first = await page(one, f, 'sh:3');
    expect(first).toMatchObject({ total: 3, capped: true, hits: 0 });
    const second = await page(two, f, 'sh:3');
    expect(second).toEqual({ ...first, hits: 1 });
    expect(second.ids).toEqual((await exact(two, f)).ids);
  });

  it('reads nothing shared for a small scope', async () => {
    const f = search(['nguyen'], [unit]);
    const stored = sharedTotalStats.stored;
    expect(await page(one, f, 'sh:4')).toMatchObject({ total: 2, hits: 0 });
    expect(await page(two, f, 'sh:4')).toMatchObject({ total: 2, hits: 0 });
    expect(sharedTotalStats.stored).toBe(stored);
  });
});
