/**
 * Issue 12: a request's light write must not wait behind an import. The request thread counts its
 * writes in progress (every way it writes, never its reads) and an import stands aside between
 * its batches while any is waiting. Checked by structure, not by wall-clock time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openDb } from '../db/client';
import { importUsers, userRow } from '../imports/fixture';
import { makeTestApp } from '../test/harness';
import { countWrites, gateBuffer, writersWaiting, writerYields } from './writer-gate';

describe('the request thread counts its writes', () => {
  const db = openDb(':memory:');
  const c = db.$client;
  countWrites(c);
  c.function('writers', () => writersWaiting());
  c.exec('CREATE TABLE seen (n INTEGER)');

  it('inside a transaction, through drizzle or better-sqlite3, and back to zero after a rollback', () => {
    let inside = -1;
    db.transaction(() => {
      inside = writersWaiting();
    });
    expect(inside).toBe(1);
    c.transaction(() => {
      inside = writersWaiting();
    }).immediate();
    expect(inside).toBe(1);
    expect(() =>
      db.transaction(() => {
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(writersWaiting()).toBe(0);
  });

  it('a writing statement on its own (run, or read back with RETURNING) counts; a read does not', () => {
    c.prepare('INSERT INTO seen (n) VALUES (writers())').run();
    expect(c.prepare('INSERT INTO seen (n) VALUES (writers()) RETURNING n').get()).toEqual({ n: 1 });
    expect(c.prepare('SELECT writers() AS n').get()).toEqual({ n: 0 });
    expect(c.prepare('SELECT n FROM seen').pluck().all()).toEqual([1, 1]);
    expect(writersWaiting()).toBe(0);
  });
});

describe('an import stands aside for waiting writes', () => {
  const held = new Int32Array(gateBuffer());
  afterEach(() => {
    Atomics.store(held, 0, 0);
  });
  const rows = (prefix: string) => Array.from({ length: 30 }, (_, i) => userRow({ code: `${prefix}${i}`, familyName: 'Lê', givenName: `An${i}`, email: `${prefix.toLowerCase()}${i}@example.vn` }));

  it('after each committed batch while a write waits, and never when none does', async () => {
    const t = await makeTestApp();
    const before = writerYields();
    const quiet = await importUsers(t, rows('WQ'), { skipErrors: true, batchSize: 10 });
    expect(quiet.body.importedCount).toBe(30);
    expect(writerYields()).toBe(before);

    // A write "waiting" for the whole import: the import stands aside after each of its 3 batches
    // (for at most a moment each, so it still finishes), and writes every row.
    Atomics.store(held, 0, 1);
    const busy = await importUsers(t, rows('WB'), { skipErrors: true, batchSize: 10 });
    expect(busy.body.importedCount).toBe(30);
    expect(writerYields()).toBe(before + 3);
  });
});
