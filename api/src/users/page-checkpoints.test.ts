/**
 * Deep users pages start from remembered checkpoints (list.ts pageIdsAt) instead of walking the
 * whole OFFSET: a differential test against the plain OFFSET query on a seeded database, with
 * random filters, scopes and offsets, and random writes in between (a checkpoint built before a
 * write must not survive it).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { users } from '../db/tables/users';
import { seededRandom } from '../lib/seeded-random';
import { makeTestApp, type TestApp } from '../test/harness';
import { elsewhere, insertUser, insertUsers, type UserOver } from './fixture';
import { insertSlices } from '../seed/batches';
import { listPage, type ListFilter, type Membership } from './list';
import { sortedPages } from './index-statements';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';
import { mapInOrder } from '../lib/in-order';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inReadEpoch } from '../lib/freshness';

let t: TestApp;
let orgIds: number[];
let paths: string[];
const random = seededRandom(2811);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
const FAMILY = ['Nguyễn', 'Trần', 'Lê'];
const GIVEN = ['An', 'Bình', 'Châu', 'Dũng'];
const TYPES = ['student', 'staff'] as const;
const STATUSES = ['none', 'doan_vien', 'hoi_vien', 'both'] as const;
const addMember = async (userId: number, organizationId: number, isActive = true) =>
  await runQuery(t.db.insert(organizationMembers).values({ userId, organizationId, isActive }).onConflictDoNothing());

beforeAll(async () => {
  t = await makeTestApp();
  const root = await t.createOrg('doan_truong', 'PC-ROOT');
  const a = await t.createOrg('doan_co_so', 'PC-A', root);
  const a1 = await t.createOrg('chi_doan', 'PC-A1', a);
  const b = await t.createOrg('doan_co_so', 'PC-B', root);
  orgIds = [root, a, a1, b];
  paths = await mapInOrder(
    orgIds,
    async (id) => (await firstRow(t.db.select({ path: organizations.path }).from(organizations).where(eq(organizations.id, id))))!.path,
  );
  // Drawn in the order one user after another would draw them, then written a slice per statement.
  const overs: UserOver[] = [];
  const joins: { user: number; organizationId: number; isActive: boolean }[] = [];
  for (let i = 0; i < 1500; i++) {
    overs.push({
      familyName: pick(FAMILY),
      givenName: pick(GIVEN),
      userType: pick(TYPES),
      membershipStatus: pick(STATUSES),
      isActive: random() < 0.8,
    });
    if (random() < 0.8) joins.push({ user: i, organizationId: pick(orgIds.slice(1)), isActive: random() < 0.9 });
    if (random() < 0.1) joins.push({ user: i, organizationId: pick(orgIds), isActive: true });
  }
  await withTransaction(t.db, async () => {
    const ids = await insertUsers(t, overs);
    const rows = joins.map((j) => ({ userId: ids[j.user]!, organizationId: j.organizationId, isActive: j.isActive }));
    // A second draw of the same unit is skipped, as addMember's ON CONFLICT DO NOTHING skipped it.
    for (const slice of insertSlices(organizationMembers, rows))
      await runQuery(t.db.insert(organizationMembers).values(slice).onConflictDoNothing());
  });
});

function randomFilter(): ListFilter {
  const f: ListFilter = { words: [], paths: null };
  if (random() < 0.3) f.words = random() < 0.5 ? ['nguyen'] : [pick(['tran', 'le', 'an', 'binh'])];
  if (random() < 0.4) f.userType = pick(TYPES);
  if (random() < 0.3) f.membershipStatus = pick(STATUSES);
  if (random() < 0.3) f.isActive = random() < 0.5;
  const r = random();
  if (r < 0.3) f.paths = [pick(paths)];
  else if (r < 0.4) f.paths = [paths[2]!, paths[3]!];
  return f;
}

/** Writes that move users in and out of every kind of filter. */
async function randomWrites() {
  const ids = await allRows(t.db.select({ id: users.id }).from(users));
  for (let i = 0; i < 20; i++) {
    const id = pick(ids).id;
    const r = random();
    if (r < 0.3)
      await runQuery(
        t.db
          .update(users)
          .set({ userType: pick(TYPES) })
          .where(eq(users.id, id)),
      );
    else if (r < 0.5)
      await runQuery(
        t.db
          .update(users)
          .set({ isActive: random() < 0.5 })
          .where(eq(users.id, id)),
      );
    else if (r < 0.8) await addMember(id, pick(orgIds.slice(1)));
    else await insertUser(t, { familyName: pick(FAMILY), givenName: pick(GIVEN) }, pick(orgIds));
  }
}

const defaultSortedMax = sortedPages.max;
afterAll(() => {
  sortedPages.max = defaultSortedMax;
});

describe('deep users pages from checkpoints', () => {
  it('give the rows and totals of the plain OFFSET query, for random filters, offsets and writes', async () => {
    let compared = 0;
    for (let round = 0; round < 6; round++) {
      for (let n = 0; n < 25; n++) {
        const f = randomFilter();
        const key = `pc:${JSON.stringify(f)}`;
        // The index strategy needs words or a scope to match on (listPage never picks it otherwise).
        const forced = f.words.length > 0 || f.paths ? (['index', 'in', 'exists'] as const) : (['in', 'exists'] as const);
        const strategy: Membership | undefined = random() < 0.5 ? undefined : pick(forced);
        // Offset 0 with a limit past every match is the plain query: no checkpoint is involved.
        // PostgreSQL's searches take it from all matches sorted, and each page either so or walking
        // the index newest first (index-statements.ts sortedPages), whatever the matches' count.
        sortedPages.max = Infinity;
        const all = await listPage(t.db, f, `${key}:all`, 100_000, 0, strategy);
        for (let i = 0; i < 4; i++) {
          const limit = pick([1, 7, 10, 25]);
          const offset = Math.floor(random() * (all.total + 30));
          sortedPages.max = random() < 0.5 ? 0 : Infinity;
          const page = await listPage(t.db, f, key, limit, offset, strategy);
          expect(page.total).toBe(all.total);
          expect(page.rows.map((r) => r.id)).toEqual(all.rows.slice(offset, offset + limit).map((r) => r.id));
          if (offset >= 200) compared++;
        }
      }
      await randomWrites();
    }
    // The seeded filters reach past the first checkpoint often enough to matter.
    expect(compared).toBeGreaterThan(100);
  });

  it('matches the whole list from its end, a page straddling each checkpoint and past the end', async () => {
    const f: ListFilter = { words: [], paths: null };
    const all = (await listPage(t.db, f, 'pc-edge:all', 100_000, 0)).rows.map((r) => r.id);
    for (const offset of [199, 200, 201, 399, 400, 401, all.length - 1, all.length, all.length + 5]) {
      expect((await listPage(t.db, f, 'pc-edge', 3, offset)).rows.map((r) => r.id)).toEqual(all.slice(offset, offset + 3));
    }
  });
});

describe('checkpoints built by concurrent requests and after another connection wrote', () => {
  const dir = mkdtempSync(join(tmpdir(), 'checkpoints-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('concurrent deep pages extending the checkpoints of one list all get their own rows', async () => {
    // The whole list (SQLite's and PostgreSQL's checkpoints) and a subtree (PostgreSQL's member_scopes walk).
    const lists: [string, ListFilter][] = [
      ['whole', { words: [], paths: null }],
      ['subtree', { words: [], paths: [paths[0]!] }],
    ];
    for (const [name, f] of lists) {
      const key = `pc-conc:${name}`;
      const all = (await listPage(t.db, f, `${key}:all`, 100_000, 0)).rows.map((r) => r.id);
      expect(all.length).toBeGreaterThan(600);
      const offsets = [650, 210, 430, 401, 250, all.length - 3, 599];
      // One list key for all: the first page past a checkpoint keeps the list's checkpoints, which the rest race to extend.
      expect((await listPage(t.db, f, key, 5, 200)).rows.map((r) => r.id)).toEqual(all.slice(200, 205));
      const pages = await Promise.all(offsets.map((o) => inReadEpoch(() => listPage(t.db, f, key, 5, o))));
      pages.forEach((p, i) => expect(p.rows.map((r) => r.id)).toEqual(all.slice(offsets[i], offsets[i]! + 5)));
      // And once more from the checkpoints they left.
      for (const o of offsets) expect((await listPage(t.db, f, key, 5, o)).rows.map((r) => r.id)).toEqual(all.slice(o, o + 5));
    }
  });

  it('a membership another process adds moves the deep pages read next, checkpoints included', async () => {
    const path = join(dir, 'walk.db');
    const a = await makeTestApp({}, path);
    const unit = await a.createOrg('doan_co_so', 'PCW-A');
    const ids = await insertUsers(
      a,
      Array.from({ length: 700 }, () => ({})),
    );
    await withTransaction(a.db, async () => {
      for (const slice of insertSlices(
        organizationMembers,
        ids.slice(0, 650).map((userId) => ({ userId, organizationId: unit, isActive: true })),
      ))
        await runQuery(a.db.insert(organizationMembers).values(slice));
    });
    const unitPath = (await firstRow(a.db.select({ path: organizations.path }).from(organizations).where(eq(organizations.id, unit))))!
      .path;
    const f: ListFilter = { words: [], paths: [unitPath] };
    const truth = async () => (await inReadEpoch(() => listPage(a.db, f, 'pcw:all', 100_000, 0))).rows.map((r) => r.id);
    const page = async (offset: number) => (await inReadEpoch(() => listPage(a.db, f, 'pcw', 4, offset))).rows.map((r) => r.id);
    const before = await truth();
    expect(await page(420)).toEqual(before.slice(420, 424));
    // The newest users join in another process: every position moves down by one.
    await elsewhere(
      a.db,
      `INSERT INTO organization_members (user_id, organization_id, is_active, role, joined_at) VALUES (${ids[699]}, ${unit}, true, 'member', 0)`,
    );
    const after = await truth();
    expect(after[0]).toBe(ids[699]);
    for (const offset of [420, 610, 205]) expect(await page(offset)).toEqual(after.slice(offset, offset + 4));
  });
});
