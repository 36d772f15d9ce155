/**
 * Awaited transactions on the one SQLite connection stay atomic and isolated (issue 29 item 2):
 * while one is open, other requests' statements wait for it instead of running inside it, so they
 * neither see its uncommitted rows nor get rolled back with it; transactions queue; nested calls
 * are savepoints.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDb, type Db } from './client';
import { allRows, firstRow, runQuery, sqlAll, sqlRun, withTransaction } from './engine';

function scratch(): Db {
  const db = openDb(':memory:');
  db.run(sql`CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE)`);
  return db;
}

const count = async (db: Db) => (await sqlAll<{ n: number }>(db, sql`SELECT count(*) AS n FROM t`))[0].n;

describe('the engine', () => {
  it('keeps another request from reading a transaction’s uncommitted rows while it awaits', async () => {
    const db = scratch();
    const seen: number[] = [];
    const long = withTransaction(db, async (tx) => {
      for (let i = 0; i < 20; i++) await sqlRun(tx, sql`INSERT INTO t (v) VALUES (${`row ${i}`})`);
      return 'done';
    });
    // Started after the transaction began: each read waits until it has committed.
    const reads = Array.from({ length: 5 }, async () => seen.push(await count(db)));
    expect(await long).toBe('done');
    await Promise.all(reads);
    expect(seen).toEqual([20, 20, 20, 20, 20]);
  });

  it('rolls back everything a failed transaction wrote and leaves other requests’ writes alone', async () => {
    const db = scratch();
    const failing = withTransaction(db, async (tx) => {
      await sqlRun(tx, sql`INSERT INTO t (v) VALUES ('a')`);
      await sqlRun(tx, sql`INSERT INTO t (v) VALUES ('b')`);
      await sqlRun(tx, sql`INSERT INTO t (v) VALUES ('a')`); // UNIQUE
    });
    // Another request's write, issued while the transaction is open: it must not be rolled back with it.
    const other = sqlRun(db, sql`INSERT INTO t (v) VALUES ('other')`);
    await expect(failing).rejects.toMatchObject({ cause: { code: 'SQLITE_CONSTRAINT_UNIQUE' } });
    await other;
    expect(await sqlAll<{ v: string }>(db, sql`SELECT v FROM t ORDER BY v`)).toEqual([{ v: 'other' }]);
  });

  it('runs concurrent transactions one after another, each seeing the last one’s result', async () => {
    const db = scratch();
    await sqlRun(db, sql`INSERT INTO t (id, v) VALUES (1, '0')`);
    const bump = () =>
      withTransaction(db, async (tx) => {
        const row = await sqlAll<{ v: string }>(tx, sql`SELECT v FROM t WHERE id = 1`);
        await Promise.resolve(); // a turn for the others
        await sqlRun(tx, sql`UPDATE t SET v = ${String(Number(row[0].v) + 1)} WHERE id = 1`);
      });
    await Promise.all(Array.from({ length: 20 }, bump));
    expect(await sqlAll(db, sql`SELECT v FROM t`)).toEqual([{ v: '20' }]);
  });

  it('makes a nested transaction a savepoint: its failure undoes only its own writes', async () => {
    const db = scratch();
    await withTransaction(db, async (tx) => {
      await sqlRun(tx, sql`INSERT INTO t (v) VALUES ('outer')`);
      await expect(
        withTransaction(tx, async (inner) => {
          await sqlRun(inner, sql`INSERT INTO t (v) VALUES ('inner')`);
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
    });
    expect(await sqlAll(db, sql`SELECT v FROM t`)).toEqual([{ v: 'outer' }]);
  });

  it('runs drizzle builders through the gate too', async () => {
    const db = scratch();
    const q = db.all(sql`SELECT 1 AS one`);
    expect(q).toEqual([{ one: 1 }]);
    const select = { all: () => [1], get: () => 1, run: () => ({ changes: 0 }) };
    expect(await allRows(select)).toEqual([1]);
    expect(await firstRow(select)).toBe(1);
    expect(await runQuery(select)).toEqual({ changes: 0 });
  });
});
