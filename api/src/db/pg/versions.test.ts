/**
 * Cache versions on PostgreSQL (drizzle-pg 0002): two transactions writing the same table at once do not
 * wait for each other on the version rows, and a table's version (freshness.versions, one query for every
 * table) moves after each committed write by either, and not for a rollback or a statement that wrote nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { pgUnavailable, startPgCluster, type PgCluster } from '../../test/pg-cluster';

const missing = pgUnavailable();
if (missing) console.warn(`Skipping the PostgreSQL cache version test: ${missing}`);

const migrationsFolder = fileURLToPath(new URL('../../../drizzle-pg', import.meta.url));

describe.skipIf(missing)('PostgreSQL cache versions', () => {
  let cluster: PgCluster;
  let pool: pg.Pool;
  beforeAll(async () => {
    cluster = await startPgCluster();
    pool = new pg.Pool({ connectionString: await cluster.createDatabase('versions_test'), max: 4 });
    await migrate(drizzle({ client: pool, casing: 'snake_case' }), { migrationsFolder });
  }, 30_000);
  afterAll(async () => {
    await pool?.end();
    await cluster?.stop();
  });

  const versions = async () =>
    new Map(
      (await pool.query<{ name: string; version: string }>('SELECT name, version FROM freshness.versions')).rows.map((r) => [
        r.name,
        Number(r.version),
      ]),
    );
  // departments: no figures trigger of its own (a users insert also bumps user_facet_counts' row for organization 0, as on SQLite).
  const insertDepartment = (c: pg.PoolClient) => c.query(`INSERT INTO departments (name, created_at, updated_at) VALUES ('K', 0, 0)`);

  it('let two open transactions write one table without waiting, each commit moving the version', async () => {
    const before = await versions();
    expect(before.size).toBe(16);
    const [a, b] = [await pool.connect(), await pool.connect()];
    try {
      for (const c of [a, b]) await c.query(`BEGIN; SET LOCAL lock_timeout = '200ms'`);
      // Both hold their stripe until commit; a wait on the other's would fail after 200 ms.
      await insertDepartment(a);
      await insertDepartment(b);
      await insertDepartment(a);
      await insertDepartment(b);
      expect((await versions()).get('departments')).toBe(before.get('departments'));
      await a.query('COMMIT');
      const afterA = (await versions()).get('departments')!;
      expect(afterA).toBeGreaterThan(before.get('departments')!);
      await b.query('COMMIT');
      expect((await versions()).get('departments')!).toBeGreaterThan(afterA);
    } finally {
      a.release(true);
      b.release(true);
    }
  });

  it('move only the written table, and not for a rollback or a statement that wrote nothing', async () => {
    const c = await pool.connect();
    try {
      const before = await versions();
      await c.query(`UPDATE departments SET name = 'C' WHERE id = -1`);
      await c.query('BEGIN');
      await insertDepartment(c);
      await c.query('ROLLBACK');
      expect(await versions()).toEqual(before);
      await c.query(`INSERT INTO departments (name, created_at, updated_at) VALUES ('CNTT', 0, 0)`);
      const after = await versions();
      expect(after.get('departments')).toBe(before.get('departments')! + 1);
      expect({ ...Object.fromEntries(after), departments: 0 }).toEqual({ ...Object.fromEntries(before), departments: 0 });
    } finally {
      c.release(true);
    }
  });
});
