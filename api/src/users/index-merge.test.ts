import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, TEST_ENGINE, type TestApp } from '../test/harness';
import { announceWriter } from '../lib/writer-gate';
import { insertUser, scopedWorld } from './fixture';
import { syncUsersIndex } from './search';
import { mergeUsersIndex, segmentCount, startIndexMerges } from './index-merge';

const FAMILY = ['Nguyễn Văn', 'Trần Thị', 'Lê Hữu', 'Phạm Ngọc'];
const GIVEN = ['An', 'Anh', 'Bình', 'Hoa'];

/** Users added one sync at a time, as requests write them: each sync leaves FTS5 a segment of its own. */
async function usersOneByOne(t: TestApp, n: number, orgId: number, prefix = 'M'): Promise<void> {
  for (let i = 0; i < n; i++) {
    await insertUser(
      t,
      { familyName: FAMILY[i % 4], givenName: `${GIVEN[(i >> 2) % 4]}`, code: `${prefix}${i}` },
      i % 3 === 0 ? orgId : undefined,
    );
    syncUsersIndex(t.db);
  }
}

/** What the users list answers for these searches, in order: the codes of each page and its total. */
async function answers(t: TestApp, token: string): Promise<string[]> {
  const out: string[] = [];
  for (const q of ['nguyen', 'tran thi', 'an', 'anh', 'hoa', 'pham ngoc b', 'zzz'])
    for (const page of [1, 2]) {
      const res = await t.request('GET', `/api/users?search=${encodeURIComponent(q)}&page=${page}&limit=5`, { token });
      expect(res.status).toBe(200);
      out.push(`${q}/${page}: ${res.body.total} ${res.body.users.map((u: { code: string }) => u.code).join(',')}`);
    }
  return out;
}

let stops: (() => void)[] = [];
afterEach(() => {
  for (const s of stops) s();
  stops = [];
});

// SQLite's FTS5 index: PostgreSQL's users_index is a GIN index the server keeps itself.
describe.skipIf(TEST_ENGINE === 'pg')('users index merges', () => {
  it('the index is set to merge any level holding two segments', async () => {
    const t = await makeTestApp();
    expect(t.db.$client.prepare("SELECT v FROM users_fts_config WHERE k = 'usermerge'").pluck().get()).toBe(2);
  });

  it('merges the segments that syncs one by one leave, and every search answers as before', async () => {
    const t = await makeTestApp();
    const w = await scopedWorld(t, 'merge');
    await usersOneByOne(t, 60, w.f1);
    const c = t.db.$client;
    const before = segmentCount(c)!;
    expect(before).toBeGreaterThan(4);
    const global = await answers(t, w.globalAdmin.token);
    const scoped = await answers(t, w.orgAdmin.token);
    expect(global.some((a) => / [1-9]\d* /.test(a))).toBe(true);

    expect(mergeUsersIndex(c, 10_000)).toBeGreaterThan(0);
    expect(segmentCount(c)).toBeLessThanOrEqual(3);
    expect(await answers(t, w.globalAdmin.token)).toEqual(global);
    expect(await answers(t, w.orgAdmin.token)).toEqual(scoped);
    expect(c.pragma('integrity_check', { simple: true })).toBe('ok');
    c.prepare("INSERT INTO users_fts (users_fts, rank) VALUES ('integrity-check', 0)").run();
  });

  it('a merge that finds nothing to do writes nothing, and is not tried again until a sync adds a segment', async () => {
    const t = await makeTestApp();
    const w = await scopedWorld(t, 'idle');
    await usersOneByOne(t, 30, w.f1);
    const c = t.db.$client;
    mergeUsersIndex(c, 10_000);
    const changes = () => c.prepare('SELECT total_changes()').pluck().get() as number;
    const at = changes();
    expect(mergeUsersIndex(c, 10_000)).toBe(0);
    expect(changes()).toBe(at);

    await usersOneByOne(t, 12, w.f1, 'N');
    expect(segmentCount(c)).toBeGreaterThan(3);
    expect(mergeUsersIndex(c, 10_000)).toBeGreaterThan(0);
  });

  it('stands aside while a request write waits for the lock', async () => {
    const t = await makeTestApp();
    const w = await scopedWorld(t, 'aside');
    await usersOneByOne(t, 40, w.f1);
    const c = t.db.$client;
    const before = segmentCount(c);
    const release = announceWriter();
    try {
      expect(mergeUsersIndex(c, 10_000)).toBe(0);
      expect(segmentCount(c)).toBe(before);
    } finally {
      release();
    }
    expect(mergeUsersIndex(c, 10_000)).toBeGreaterThan(0);
  });

  it('runs on a timer in the holder of its lease', async () => {
    const t = await makeTestApp();
    const w = await scopedWorld(t, 'timer');
    await usersOneByOne(t, 40, w.f1);
    stops.push(await startIndexMerges(t.db, 20));
    await expect.poll(() => segmentCount(t.db.$client), { timeout: 5000, interval: 25 }).toBeLessThanOrEqual(3);
  });
});
