import { describe, expect, it } from 'vitest';
import { makeTestApp, TEST_ENGINE } from '../test/harness';
import { users } from '../db/tables/users';
import { userSearchText } from './search';
import { runQuery } from '../db/engine';

/** How this connection's planner would run FTS5's range delete of merged pages. */
function rangePlan(c: import('better-sqlite3').Database): string {
  const steps = c.prepare('EXPLAIN QUERY PLAN SELECT id FROM users_fts_data WHERE id >= ? AND id <= ?').all(0, 0) as { detail: string }[];
  return steps.map((s) => s.detail).join('; ');
}

// SQLite's FTS5 index and its planner statistics: PostgreSQL searches a generated tsvector (db/pg/search.test.ts).
describe.skipIf(TEST_ENGINE === 'pg')('users index statistics', () => {
  it('an ANALYZE taken while the index was empty no longer makes FTS5 scan its whole data table for each merge', async () => {
    const t = await makeTestApp();
    const c = t.db.$client;
    for (let i = 0; i < 30; i++) {
      const base = {
        code: `SV${i}`,
        familyName: i % 2 ? 'Trần Thị' : 'Nguyễn Văn',
        givenName: `Ánh${i}`,
        email: `sv${i}@test.vn`,
        phone: null,
      };
      await runQuery(t.db.insert(users).values({ ...base, searchText: userSearchText(base) }));
    }
    // As tests/bench/generate.ts does: the users are queued, the index still holds its 2 rows.
    c.exec('ANALYZE');
    expect(c.prepare("SELECT stat FROM sqlite_stat1 WHERE tbl = 'users_fts_data'").pluck().get()).toBe('2');
    expect(rangePlan(c)).toMatch(/^SCAN/);

    const res = await t.request('GET', '/api/users?search=tran%20anh&limit=100', { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(res.body.users.map((u: { code: string }) => u.code).sort()).toEqual(
      Array.from({ length: 15 }, (_, k) => `SV${2 * k + 1}`).sort(),
    );

    const count = c.prepare('SELECT count(*) FROM users_fts_data').pluck().get() as number;
    expect(c.prepare("SELECT stat FROM sqlite_stat1 WHERE tbl = 'users_fts_data'").pluck().get()).toBe(String(Math.max(count, 10)));
    expect(rangePlan(c)).toMatch(/^SEARCH users_fts_data USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/);
  });

  it('leaves statistics that already let FTS5 seek as they are', async () => {
    const t = await makeTestApp();
    const c = t.db.$client;
    c.exec('ANALYZE sqlite_schema');
    c.prepare("INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES ('users_fts_data', NULL, '12')").run();
    c.exec('ANALYZE sqlite_schema');
    const res = await t.request('GET', '/api/users?search=admin', { token: t.adminToken });
    expect(res.status).toBe(200);
    expect(c.prepare("SELECT stat FROM sqlite_stat1 WHERE tbl = 'users_fts_data'").pluck().get()).toBe('12');
    expect(rangePlan(c)).toMatch(/^SEARCH/);
  });
});
