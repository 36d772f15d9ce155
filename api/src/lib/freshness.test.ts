import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../db/client';
import { runMigrations } from '../db/migrate';
import { freshCache, newReadEpoch, versionStamp } from './freshness';
import { withTransaction } from '../db/engine';

const dir = mkdtempSync(join(tmpdir(), 'freshness-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A migrated file database (so a second connection can write to it). */
function fileDb() {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.db`);
  const db = openDb(path);
  runMigrations(db);
  return { db, path };
}

const addDepartment = (db: Database.Database, code: string) =>
  db.prepare("INSERT INTO departments (code, name, search_text, created_at, updated_at) VALUES (?, ?, '', 0, 0)").run(code, code);
const departmentCount = (db: Database.Database) => db.prepare('SELECT count(*) FROM departments').pluck().get() as number;

describe('freshCache (per-table versions kept by triggers)', () => {
  it('serves the value it built until one of its tables is written, then builds again', async () => {
    const { db } = fileDb();
    const cache = freshCache<number>(10, ['departments']);
    let builds = 0;
    const read = () => cache.get(db, 'k', async () => ++builds);
    expect([await read(), await read()]).toEqual([1, 1]);
    addDepartment(db.$client, 'D1');
    expect([await read(), await read()]).toEqual([2, 2]);
    db.$client.exec("UPDATE departments SET name = name || 'x'");
    expect(await read()).toBe(3);
  });

  it('ignores writes to tables it does not read (sign-ins, token refreshes, audit rows)', async () => {
    const { db } = fileDb();
    const cache = freshCache<number>(10, ['organizations', 'organization_members']);
    let builds = 0;
    const read = () => cache.get(db, 'tree', async () => ++builds);
    await read();
    addDepartment(db.$client, 'D1');
    db.$client.exec("INSERT INTO audit_logs (action, entity, created_at) VALUES ('auth.login', 'user', 0)");
    expect(await read()).toBe(1);
  });

  it('sees a commit by another connection in the next request, and in the next turn of the event loop', async () => {
    const { db, path } = fileDb();
    const cache = freshCache<number>(10, ['departments']);
    const read = () => cache.get(db, 'count', async () => departmentCount(db.$client));
    expect(await read()).toBe(0);
    const other = new Database(path);
    addDepartment(other, 'D2');
    newReadEpoch(); // what the app does as each request arrives
    expect(await read()).toBe(1);
    addDepartment(other, 'D3');
    // A timer's job after the request (no request in between) still sees it.
    await new Promise((r) => setImmediate(r));
    expect(await read()).toBe(2);
    other.close();
  });

  it('keeps nothing read inside a transaction that rolls back', async () => {
    const { db } = fileDb();
    addDepartment(db.$client, 'D0');
    const cache = freshCache<number>(10, ['departments']);
    const read = () => cache.get(db, 'count', async () => departmentCount(db.$client));
    const before = versionStamp(db, ['departments']);
    await expect(
      withTransaction(db, async () => {
        addDepartment(db.$client, 'PHANTOM');
        expect(await read()).toBe(2);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    // The rollback restores the old version; one real write brings the version the phantom saw back.
    expect(versionStamp(db, ['departments'])).toBe(before);
    db.$client.exec("UPDATE departments SET name = 'renamed'");
    expect(await read()).toBe(1);
  });

  it('forgets versions read inside a transaction that rolls back (kept versions would hide the next real write)', async () => {
    const { db } = fileDb();
    addDepartment(db.$client, 'D0');
    const cache = freshCache<number>(10, ['departments']);
    const read = () => cache.get(db, 'count', async () => departmentCount(db.$client));
    expect(await read()).toBe(1);
    expect(() =>
      db.$client.transaction(() => {
        addDepartment(db.$client, 'PHANTOM');
        versionStamp(db, ['departments']);
        throw new Error('rollback');
      })(),
    ).toThrow('rollback');
    expect(await read()).toBe(1);
    addDepartment(db.$client, 'D1');
    expect(await read()).toBe(2);
  });

  it('sees this connection’s writes within a request, and another’s from the next request', async () => {
    const { db, path } = fileDb();
    const cache = freshCache<number>(10, ['departments']);
    const read = () => cache.get(db, 'count', async () => departmentCount(db.$client));
    const other = new Database(path);
    for (let i = 0; i < 3; i++) {
      expect(await read()).toBe(2 * i);
      addDepartment(db.$client, `OWN${i}`);
      expect(await read()).toBe(2 * i + 1);
      addDepartment(other, `OTHER${i}`);
      newReadEpoch();
    }
    other.close();
  });

  it('keeps values of different keys and databases apart, and at most maxEntries per database', async () => {
    const a = fileDb().db;
    const b = fileDb().db;
    const cache = freshCache<string>(4, ['departments']);
    expect(await cache.get(a, 'k', async () => 'a')).toBe('a');
    expect(await cache.get(b, 'k', async () => 'b')).toBe('b');
    expect(await cache.get(a, 'k', async () => 'x')).toBe('a');
    for (let i = 0; i < 4; i++) await cache.get(a, `n${i}`, async () => `v${i}`);
    expect(await cache.get(a, 'k', async () => 'rebuilt')).toBe('rebuilt');
    expect(await cache.get(a, 'n3', async () => 'rebuilt')).toBe('v3');
  });

  it('bounds what it keeps by the weight of its values: a heavy value drops the oldest, one heavier than the bound is never kept', async () => {
    const { db } = fileDb();
    const cache = freshCache<string[]>(10, ['departments'], (rows) => rows.length);
    const rows = (n: number, tag: string) => Array.from({ length: n }, () => tag);
    const kept = async (key: string) => {
      let built = false;
      await cache.get(db, key, async () => ((built = true), []));
      return !built;
    };
    await cache.get(db, 'a', async () => rows(4, 'a'));
    await cache.get(db, 'b', async () => rows(4, 'b'));
    expect([await kept('a'), await kept('b')]).toEqual([true, true]);
    // 8 + 4 > 10: the oldest goes until the rest weigh at most half.
    await cache.get(db, 'c', async () => rows(4, 'c'));
    expect(await kept('c')).toBe(true);
    expect(await kept('a')).toBe(false);
    await cache.get(db, 'huge', async () => rows(11, 'h'));
    expect(await kept('huge')).toBe(false);
  });

  it('refuses a table without version triggers (a cache that could never notice a write)', async () => {
    const { db } = fileDb();
    const cache = freshCache<number>(1, ['refresh_tokens' as never]);
    await expect(cache.get(db, 'k', async () => 1)).rejects.toThrow(/no version trigger/);
  });
});
