/**
 * analyzeOutgrown (pg-stats.ts): inside a transaction that has written far more rows into a table
 * than its statistics count, the table is analyzed with those rows; a table whose statistics are
 * right, or were never taken, is left alone. (Autovacuum is off for the tables: its ANALYZE must not race the checks.)
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, TEST_ENGINE, type TestApp } from '../test/harness';
import { analyzeOutgrown } from './pg-stats';
import { sqlGet, sqlRun, withTransaction } from './engine';

let t: TestApp;
beforeAll(async () => {
  if (TEST_ENGINE === 'pg') t = await makeTestApp();
});
afterAll(async () => {
  if (TEST_ENGINE === 'pg')
    for (const name of ['stats_small', 'stats_right', 'stats_never']) await sqlRun(t.db, `DROP TABLE IF EXISTS ${name}`);
});

const reltuples = async (name: string) =>
  Number((await sqlGet<{ n: number }>(t.db, sql`SELECT reltuples AS n FROM pg_class WHERE oid = to_regclass(${name})`)).n);

describe.skipIf(TEST_ENGINE !== 'pg')('PostgreSQL statistics a transaction outgrows', () => {
  it('analyzes, with its own rows, only the tables whose statistics count fewer rows than it wrote', async () => {
    for (const name of ['stats_small', 'stats_right', 'stats_never'])
      await sqlRun(t.db, `CREATE TABLE ${name} (id int PRIMARY KEY) WITH (autovacuum_enabled = false)`);
    await sqlRun(t.db, 'INSERT INTO stats_small SELECT 1');
    await sqlRun(t.db, 'INSERT INTO stats_right SELECT generate_series(1, 5000)');
    await sqlRun(t.db, 'ANALYZE stats_small');
    await sqlRun(t.db, 'ANALYZE stats_right');
    const analyzed = await withTransaction(t.db, async (tx) => {
      for (const name of ['stats_small', 'stats_right', 'stats_never'])
        await sqlRun(tx, `INSERT INTO ${name} SELECT generate_series(10001, 12000)`);
      const names = await analyzeOutgrown(tx, ['stats_small', 'stats_right', 'stats_never', 'no_such_table'], 2000);
      expect(await reltuples('stats_small')).toBe(2001);
      return names;
    });
    expect(analyzed).toEqual(['stats_small']);
    expect(await reltuples('stats_right')).toBe(5000);
    expect(await reltuples('stats_never')).toBe(-1);
  });
});
