/**
 * The super admin's unfiltered users list (newest first, page/limit as OFFSET): its deep pages and
 * its count walk the narrow users_id_idx instead of the wide table rows (issue 12: page 5,000 of
 * 100k < 10 ms uncached; figures in docs/benchmark.md, not asserted here).
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeTestApp, TEST_ENGINE, type TestApp } from '../test/harness';
import { insertUser } from './fixture';
import { listPage } from './list';
import { sqlAll } from '../db/engine';

let t: TestApp;

beforeAll(async () => {
  t = await makeTestApp();
  for (let i = 0; i < 30; i++) await insertUser(t, { familyName: 'Lê', givenName: `Trang ${i}` });
});

afterEach(() => vi.restoreAllMocks());

// Drizzle binds placeholders positionally (limit, offset): any numbers do for a plan.
const plan = (sql: string) =>
  (t.db.$client.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(sql.match(/\?/g) ?? []).map(() => 10)) as { detail: string }[])
    .map((r) => r.detail)
    .join('; ');

describe('unfiltered users list', () => {
  // SQLite's plans (PostgreSQL's index choice is its planner's, by statistics).
  it.skipIf(TEST_ENGINE === 'pg')('reads its page ids and its count from the narrow id index', async () => {
    const prepared: string[] = [];
    const prepare = t.db.$client.prepare.bind(t.db.$client);
    vi.spyOn(t.db.$client, 'prepare').mockImplementation(((sql: string) => {
      prepared.push(sql);
      return prepare(sql);
    }) as typeof t.db.$client.prepare);
    await listPage(t.db, { words: [], paths: null }, 'deep-page', 10, 20);
    const page = prepared.find((s) => /order by/i.test(s) && /offset/i.test(s));
    const total = prepared.find((s) => /count\(\*\)/i.test(s));
    expect(page).toBeDefined();
    expect(total).toBeDefined();
    expect(plan(page!)).toContain('COVERING INDEX users_id_idx');
    expect(plan(total!)).toContain('COVERING INDEX users_id_idx');
  });

  it('answers the same pages as walking the table newest first', async () => {
    // The table itself, not the index the list reads (NOT INDEXED is SQLite's word for it).
    const walk = `SELECT id FROM users ${TEST_ENGINE === 'pg' ? '' : 'NOT INDEXED'} ORDER BY id DESC`;
    const all = (await sqlAll<{ id: number }>(t.db, walk)).map((r) => r.id);
    for (const offset of [0, 10, 20, all.length - 3]) {
      const { rows, total } = await listPage(t.db, { words: [], paths: null }, `deep-page:${offset}`, 10, offset);
      expect(total).toBe(all.length);
      expect(rows.map((r) => r.id)).toEqual(all.slice(offset, offset + 10));
    }
  });
});
