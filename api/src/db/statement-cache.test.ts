import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { countWrites, writersWaiting } from '../lib/writer-gate';
import { cacheStatements } from './statement-cache';

function connection() {
  const db = new Database(':memory:');
  cacheStatements(db);
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO t (name) VALUES ('a'), ('b'), ('c')");
  return db;
}

describe('prepared statements kept per connection', () => {
  it('hands the same statement out again, in its default row mode whatever the last caller set', () => {
    const db = connection();
    const sql = 'SELECT id, name FROM t WHERE id = ?';
    const first = db.prepare(sql);
    expect(first.pluck().get(1)).toBe(1);
    const again = db.prepare(sql);
    expect(again).toBe(first);
    expect(again.get(2)).toEqual({ id: 2, name: 'b' });
    expect(db.prepare(sql).raw().get(3)).toEqual([3, 'c']);
    expect(db.prepare(sql).all(1)).toEqual([{ id: 1, name: 'a' }]);
    expect(db.prepare(sql).expand().get(1)).toEqual({ t: { id: 1, name: 'a' } });
    expect(db.prepare(sql).get(1)).toEqual({ id: 1, name: 'a' });
  });

  it('never shares a statement that is still iterating', () => {
    const db = connection();
    const sql = 'SELECT name FROM t ORDER BY id';
    const outer = db.prepare(sql).pluck();
    const seen: string[] = [];
    for (const name of outer.iterate() as IterableIterator<string>) {
      const inner = db.prepare(sql);
      expect(inner).not.toBe(outer);
      seen.push(`${name}:${(inner.all() as { name: string }[]).length}`);
    }
    expect(seen).toEqual(['a:3', 'b:3', 'c:3']);
  });

  it('keeps the write counter exact for a statement handed out many times (wrapped once)', () => {
    const db = connection();
    countWrites(db);
    let during = -1;
    db.function('probe', () => {
      during = writersWaiting();
      return 'x';
    });
    const sql = 'UPDATE t SET name = probe() WHERE id = ?';
    const run = db.prepare(sql).run;
    for (let i = 0; i < 1000; i++) db.prepare(sql);
    expect(db.prepare(sql).run).toBe(run);
    db.prepare(sql).run(1);
    // Counted once while it runs, not once per time it was handed out.
    expect(during).toBe(1);
    expect(writersWaiting()).toBe(0);
  });
});
