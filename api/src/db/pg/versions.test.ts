/**
 * Cache versions on PostgreSQL (drizzle-pg 0002): two transactions writing the same table at once do not
 * wait for each other on the version rows, and a table's version (freshness.versions, one query for every
 * table) moves after each committed write by either (once per transaction, drizzle-pg 0031), and not for a rollback or
 * a statement that wrote nothing.
 * Both engines know the same version names, and users' column-group versions (drizzle-pg 0006, SQLite's
 * 0045) move only when their columns change value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { openDb } from '../client';
import { runMigrations } from '../migrate';
import { comparisonUnavailable, startPgCluster, type PgCluster } from '../../test/pg-server';

const missing = comparisonUnavailable();
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
    expect(before.has('departments')).toBe(true);
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

  it('move once for a transaction of many writes, and still after a rollback to a savepoint undid the first (drizzle-pg 0031)', async () => {
    const c = await pool.connect();
    try {
      const before = (await versions()).get('departments')!;
      await c.query('BEGIN');
      for (let i = 0; i < 5; i++) await insertDepartment(c);
      await c.query('COMMIT');
      expect((await versions()).get('departments')).toBe(before + 1);
      // An import's batch rolled back to its savepoint, the next batch kept: readers must see a new version.
      await c.query('BEGIN');
      await c.query('SAVEPOINT batch');
      await insertDepartment(c);
      await c.query('ROLLBACK TO SAVEPOINT batch');
      await insertDepartment(c);
      await c.query('COMMIT');
      expect((await versions()).get('departments')).toBe(before + 2);
      // The next transaction on the same connection bumps again.
      await insertDepartment(c);
      expect((await versions()).get('departments')).toBe(before + 3);
    } finally {
      c.release(true);
    }
  });

  it('keep every version when the stripes become 16 (drizzle-pg 0038), and let sixteen open transactions write without waiting', async () => {
    // A database at 0037 whose versions are spread over all 64 stripes, then migrated on.
    const before37 = mkdtempSync(join(tmpdir(), 'pg-0037-'));
    try {
      cpSync(migrationsFolder, before37, { recursive: true });
      const journal = JSON.parse(readFileSync(join(before37, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
      journal.entries = journal.entries.slice(
        0,
        journal.entries.findIndex((e) => e.tag.startsWith('0038')),
      );
      writeFileSync(join(before37, 'meta/_journal.json'), JSON.stringify(journal));
      const old = new pg.Pool({ connectionString: await cluster.createDatabase('stripes_test'), max: 17 });
      try {
        await migrate(drizzle({ client: old, casing: 'snake_case' }), { migrationsFolder: before37 });
        expect(Number((await old.query('SELECT count(*) AS n FROM freshness.counters')).rows[0].n)).toBe(64);
        await old.query(`UPDATE freshness.counters SET departments = departments + stripe, users = users + 1 WHERE stripe >= 10`);
        const read = async () => (await old.query<{ name: string; version: string }>('SELECT name, version FROM freshness.versions')).rows;
        const spread = await read();
        // Number(): another file of the worker may have made node-postgres parse bigint (db/postgres.ts).
        expect(Number(spread.find((r) => r.name === 'departments')!.version)).toBe((10 + 63) * 27);
        await migrate(drizzle({ client: old, casing: 'snake_case' }), { migrationsFolder });
        expect(await read()).toEqual(spread);
        expect(Number((await old.query('SELECT count(*) AS n FROM freshness.counters')).rows[0].n)).toBe(16);
        const writers = await Promise.all(Array.from({ length: 16 }, () => old.connect()));
        try {
          for (const c of writers) await c.query(`BEGIN; SET LOCAL lock_timeout = '500ms'`);
          for (const c of writers) await c.query(`INSERT INTO departments (name, created_at, updated_at) VALUES ('K', 0, 0)`);
          for (const c of writers) await c.query('COMMIT');
        } finally {
          for (const c of writers) c.release(true);
        }
        expect(Number((await read()).find((r) => r.name === 'departments')!.version)).toBe((10 + 63) * 27 + 16);
      } finally {
        await old.end();
      }
    } finally {
      rmSync(before37, { recursive: true, force: true });
    }
  });

  it('know the same version names as SQLite', async () => {
    const sqlite = openDb(':memory:');
    try {
      runMigrations(sqlite);
      const names = (sqlite.$client.prepare('SELECT name FROM cache_versions').all() as { name: string }[]).map((r) => r.name);
      // A SQLite version with no PostgreSQL twin would leave caches stale on PostgreSQL, and the reverse on SQLite
      // (the member_scopes buckets: drizzle-pg 0036, SQLite 0052).
      const pgNames = [...(await versions()).keys()];
      expect(names.filter((n) => /^member_scopes:(\d+|top)$/.test(n))).toHaveLength(17);
      expect(pgNames.sort()).toEqual(names.sort());
    } finally {
      sqlite.$client.close();
    }
  });

  it('move users column-group versions only when their columns change value', async () => {
    const moved = async (statement: string) => {
      const before = await versions();
      await pool.query(statement);
      const after = await versions();
      return Object.fromEntries([...after].filter(([name, v]) => v !== before.get(name)).map(([name, v]) => [name, v - before.get(name)!]));
    };
    const all = { users: 1, 'users:access': 1, 'users:counted': 1, 'users:search': 1, 'users:words': 1 };
    expect(
      await moved(`INSERT INTO users (code, family_name, given_name, email, search_text, created_at, updated_at)
        VALUES ('V1', 'Nguyen', 'An', 'an@x.vn', 'nguyen an', 0, 0), ('V2', 'Tran', 'Binh', 'binh@x.vn', 'tran binh', 0, 0)`),
    ).toEqual(all);
    const set = (assignment: string) => moved(`UPDATE users SET ${assignment} WHERE code IN ('V1', 'V2')`);
    expect(await set(`phone = '0901'`)).toEqual({ users: 1 });
    expect(await set(`search_text = search_text || ' x'`)).toEqual({ users: 1, 'users:search': 1, 'users:words': 1 });
    // Words beginning with a digit, changed at the end only (a phone): 'users:words' stays (drizzle-pg 0015).
    expect(await set(`search_text = search_text || ' 0901 234'`)).toEqual({ users: 1, 'users:search': 1 });
    expect(await set(`search_text = replace(search_text, '0901 234', '0902-99')`)).toEqual({ users: 1, 'users:search': 1 });
    expect(await set(`search_text = replace(search_text, ' 0902-99', '')`)).toEqual({ users: 1, 'users:search': 1 });
    // A digit word before a letter one shifts the letter word's position: a phrase may match differently.
    expect(await set(`search_text = replace(search_text, ' x', ' 7 x')`)).toEqual({ users: 1, 'users:search': 1, 'users:words': 1 });
    expect(await set(`search_text = search_text || ' 12ab'`)).toEqual({ users: 1, 'users:search': 1 });
    expect(await set(`search_text = search_text || ' ab12'`)).toEqual({ users: 1, 'users:search': 1, 'users:words': 1 });
    expect(await set(`user_type = 'staff'`)).toEqual({ users: 1, 'users:counted': 1 });
    expect(await set(`membership_status = 'doan_vien'`)).toEqual({ users: 1, 'users:counted': 1 });
    expect(await set(`email = code || '@y.vn'`)).toEqual({ users: 1, 'users:access': 1 });
    expect(await set(`must_change_password = true`)).toEqual({ users: 1, 'users:access': 1 });
    expect(await set(`is_active = false`)).toEqual({ users: 1, 'users:access': 1, 'users:counted': 1 });
    // Written with the values they hold, as SQLite's WHEN compares them.
    expect(await set(`email = email, user_type = user_type, search_text = search_text, is_active = is_active`)).toEqual({ users: 1 });
    // One row of the statement differing is enough.
    expect(
      await moved(`UPDATE users SET user_type = CASE code WHEN 'V1' THEN 'student' ELSE user_type END WHERE code IN ('V1', 'V2')`),
    ).toEqual({
      users: 1,
      'users:counted': 1,
    });
    expect(await moved(`UPDATE users SET email = 'none' WHERE code = 'nobody'`)).toEqual({});
    expect(await moved(`DELETE FROM users WHERE code IN ('V1', 'V2')`)).toEqual(all);
  });

  it("move 'organization_members' with every membership, and a member_scopes bucket only when someone enters or leaves a subtree", async () => {
    const moved = async (statement: string) => {
      const before = await versions();
      await pool.query(statement);
      const after = await versions();
      return Object.fromEntries([...after].filter(([name, v]) => v !== before.get(name)).map(([name, v]) => [name, v - before.get(name)!]));
    };
    // The app writes a unit's path (organizations/paths.ts): '/' + its ancestors' ids and its own.
    const org = async (code: string, parent: { path: string } | null) => {
      const { id } = (
        await pool.query<{ id: number }>(
          `INSERT INTO organizations (name, code, type, created_at, updated_at) VALUES ($1, $1, 'doan_co_so', 0, 0) RETURNING id`,
          [code],
        )
      ).rows[0]!;
      const path = `${parent?.path ?? '/'}${id}/`;
      await pool.query('UPDATE organizations SET path = $1 WHERE id = $2', [path, id]);
      return { id, path };
    };
    const root = await org('B-ROOT', null);
    const faculty = await org('B-F', root);
    const unit = await org('B-F-1', faculty);
    const other = await org('B-G', root);
    const user = (
      await pool.query<{ id: number }>(
        `INSERT INTO users (code, family_name, given_name, email, search_text, created_at, updated_at) VALUES ('B1', 'A', 'B', 'b1@x.vn', '', 0, 0) RETURNING id`,
      )
    ).rows[0]!.id;
    const scopes = (id: number) => `member_scopes:${id % 16}`;
    const join = (o: number) => `INSERT INTO organization_members (organization_id, user_id, joined_at) VALUES (${o}, ${user}, 0)`;
    // Into a chi đoàn: the user enters it, its faculty (one bucket) and the top-level unit.
    expect(await moved(join(unit.id))).toEqual({ organization_members: 1, [scopes(faculty.id)]: 1, 'member_scopes:top': 1 });
    // Into the faculty already around them: no subtree gains or loses anyone.
    expect(await moved(join(faculty.id))).toEqual({ organization_members: 1 });
    // Moved from the chi đoàn to another faculty: leaves the chi đoàn (its faculty's bucket), enters the other.
    const both = await moved(`UPDATE organization_members SET organization_id = ${other.id} WHERE organization_id = ${unit.id}`);
    expect(both).toEqual({ organization_members: 1, [scopes(faculty.id)]: 1, [scopes(other.id)]: 1 });
    expect(await moved(`UPDATE organization_members SET role = 'x' WHERE organization_id = -1`)).toEqual({});
    expect(await moved(join(root.id))).toEqual({ organization_members: 1 });
    expect(await moved(`DELETE FROM organization_members WHERE organization_id = ${faculty.id}`)).toEqual({
      organization_members: 1,
      [scopes(faculty.id)]: 1,
    });
    // The last memberships gone: out of every subtree.
    expect(await moved(`DELETE FROM organization_members WHERE user_id = ${user}`)).toEqual({
      organization_members: 1,
      [scopes(other.id)]: 1,
      'member_scopes:top': 1,
    });
    // A member_scopes row whose unit is gone moves every bucket.
    const gone = await moved(`INSERT INTO member_scopes (organization_id, user_id) VALUES (-7, ${user})`);
    expect(Object.keys(gone).sort()).toEqual([...Array.from({ length: 16 }, (_, b) => `member_scopes:${b}`), 'member_scopes:top'].sort());
  });
});
