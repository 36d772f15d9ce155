/**
 * Issue 12: a long export must not hold the event loop, so a light request answers while it streams.
 * We measure the longest gap between ticks of a 2 ms timer (a blocked loop shows as one long gap),
 * not the duration of the whole export.
 */
import { USER_EXPORT_FIELDS } from '@doanhoi/shared';
import { beforeAll, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../test/harness';
import { longestBlock } from './loop-probe';
import { users } from '../db/tables/users';
import { userSearchText } from '../users/search';
import { runQuery, withTransaction } from '../db/engine';
import { download, readWorkbook, sheetRows } from '../imports/fixture';

let t: TestApp;
const N = 6000;

beforeAll(async () => {
  t = await makeTestApp();
  const rows = Array.from({ length: N }, (_, i) => {
    const base = { code: `SL${i}`, familyName: 'Nguyễn Văn', givenName: `An${i}`, email: `sl${i}@example.vn`, phone: '0901234567' };
    return { ...base, searchText: userSearchText(base) };
  });
  await withTransaction(t.db, async (tx) => {
    for (let i = 0; i < rows.length; i += 500) await runQuery(tx.insert(users).values(rows.slice(i, i + 500)));
  });
});

it('a profile request answers while a large export is still streaming, and no block is long', async () => {
  const fields = USER_EXPORT_FIELDS.map((f) => f.key);
  // Warm up once (module loading and first compilation are a one-off per process, not per export).
  await Promise.resolve(
    t.app.request('/api/export/users', {
      method: 'POST',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ fields, search: 'SL1' }),
    }),
  ).then((r) => r.arrayBuffer());
  await t.request('GET', '/api/auth/profile', { token: t.adminToken });
  // One export with a light request sent while it streams: the loop's longest block, against the export's duration.
  const attempt = async () => {
    let exportDone = 0;
    let profileDone = 0;
    const started = performance.now();
    const { maxGap } = await longestBlock(async () => {
      const exp = Promise.resolve(
        t.app.request('/api/export/users', {
          method: 'POST',
          headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ fields }),
        }),
      )
        .then((r) => r.arrayBuffer())
        .then((b) => {
          exportDone = performance.now();
          return b.byteLength;
        });
      // Let the export start writing before the light request arrives.
      await new Promise((r) => setTimeout(r, 30));
      const profile = await t.request('GET', '/api/auth/profile', { token: t.adminToken });
      profileDone = performance.now();
      expect(profile.status).toBe(200);
      expect(await exp).toBeGreaterThan(100_000);
    });
    expect(profileDone).toBeLessThan(exportDone);
    return { maxGap, exportMs: exportDone - started };
  };
  // Wall-clock gaps stretch with this 2-core machine's load, and so does the export: the longest block is
  // compared with the export's own duration. Sliced, it is a few percent of it (25–30 ms of 400–650 ms when
  // idle); before slicing one page held the loop for most of the export (470–650 ms alone), in every attempt.
  // A busy machine can preempt the test's thread for longer than a slice (816 of 1,447 ms once, in CI on
  // 2026-11-29), so the best of three attempts is judged: a blocking export fails all three.
  let best = { maxGap: Infinity, exportMs: 0 };
  for (let i = 0; i < 3 && !(best.maxGap < best.exportMs / 3); i++) {
    const a = await attempt();
    if (a.maxGap / a.exportMs < best.maxGap / Math.max(1, best.exportMs)) best = a;
  }
  expect(best.maxGap).toBeLessThan(best.exportMs / 3);
});

it('a search export holds every match over many pages, in the order they were added, and nothing else', async () => {
  // 'an1' begins An1, An10–An19, An100–An199 and An1000–An1999: 1,111 users, more than four pages of the export.
  const res = await download(t, 'POST', '/api/export/users', t.adminToken, { fields: ['code'], search: 'an1' });
  expect(res.status).toBe(200);
  const codes = sheetRows((await readWorkbook(res.buf)).worksheets[0]!)
    .slice(1)
    .map((r) => String(r[0]));
  const wanted = Array.from({ length: N }, (_, i) => i)
    .filter((i) => String(i).startsWith('1'))
    .map((i) => `SL${i}`);
  expect(codes).toEqual(wanted);
});
