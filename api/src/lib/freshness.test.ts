import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../db/client';
import { freshCache, writeStamp } from './freshness';

const dir = mkdtempSync(join(tmpdir(), 'freshness-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fileDb() {
  const path = join(dir, `${Math.random().toString(36).slice(2)}.db`);
  const db = openDb(path);
  db.$client.exec('CREATE TABLE t (v INTEGER)');
  return { db, path };
}

describe('freshCache', () => {
  it('serves the value it built until this connection writes, then builds again', () => {
    const { db } = fileDb();
    const cache = freshCache<number>(10);
    let builds = 0;
    const read = () => cache.get(db, 'k', () => ++builds);
    expect([read(), read()]).toEqual([1, 1]);
    db.$client.exec('INSERT INTO t VALUES (1)');
    expect([read(), read()]).toEqual([2, 2]);
    // An update that changes nothing still counts as a write: safe, never stale.
    db.$client.exec('UPDATE t SET v = v');
    expect(read()).toBe(3);
  });

  it('sees a commit by another process within a quarter second', async () => {
    const { db, path } = fileDb();
    const before = writeStamp(db);
    const other = new Database(path);
    other.prepare('INSERT INTO t VALUES (2)').run();
    other.close();
    await new Promise((r) => setTimeout(r, 300));
    expect(writeStamp(db)).not.toBe(before);
  });

  it('keeps values of different keys and databases apart, and at most maxEntries per database', () => {
    const a = fileDb().db;
    const b = fileDb().db;
    const cache = freshCache<string>(4);
    expect(cache.get(a, 'k', () => 'a')).toBe('a');
    expect(cache.get(b, 'k', () => 'b')).toBe('b');
    expect(cache.get(a, 'k', () => 'x')).toBe('a');
    for (let i = 0; i < 4; i++) cache.get(a, `n${i}`, () => `v${i}`);
    // The oldest half went to make room.
    expect(cache.get(a, 'k', () => 'rebuilt')).toBe('rebuilt');
    expect(cache.get(a, 'n3', () => 'rebuilt')).toBe('v3');
  });
});
