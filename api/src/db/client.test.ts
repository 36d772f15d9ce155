import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from './client';
import { withTransaction } from './engine';

/** Another connection (as another API process has) that holds the write lock for `ms`, then commits. */
function holdWriteLock(file: string, ms: number): Promise<{ locked: Promise<void>; done: Promise<void> }> {
  const worker = new Worker(
    `const { workerData, parentPort } = require('node:worker_threads');
     const db = new (require('better-sqlite3'))(workerData.file);
     db.exec('BEGIN IMMEDIATE');
     db.prepare('UPDATE t SET n = n + 10').run();
     parentPort.postMessage('locked');
     Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.ms);
     db.exec('COMMIT');
     db.close();`,
    { eval: true, workerData: { file, ms } },
  );
  const locked = new Promise<void>((resolve) => worker.once('message', () => resolve()));
  const done = new Promise<void>((resolve, reject) => worker.once('exit', () => resolve()).once('error', reject));
  return Promise.resolve({ locked, done });
}

describe('transactions across connections (issue 28: several API processes on one file)', () => {
  let dir: string;
  let file: string;
  let db: Db;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'doanhoi-client-'));
    file = join(dir, 'app.db');
    db = openDb(file);
    db.$client.exec('CREATE TABLE t (n INTEGER NOT NULL); INSERT INTO t VALUES (0)');
  });
  afterEach(() => {
    db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a transaction that reads, then writes, waits for another connection holding the write lock instead of failing', async () => {
    const other = await holdWriteLock(file, 150);
    await other.locked;
    const read = db.$client.prepare('SELECT n FROM t').pluck();
    const write = db.$client.prepare('UPDATE t SET n = ?');
    // Deferred, the read took a snapshot and the write answered SQLITE_BUSY at once (no busy timeout).
    const n = await withTransaction(db, async () => {
      const seen = read.get() as number;
      write.run(seen + 1);
      return seen + 1;
    });
    await other.done;
    // The body ran after the other commit: it read 10 and kept it.
    expect(n).toBe(11);
    expect(read.get()).toBe(11);
  });

  it('takes the write lock at BEGIN: another connection cannot commit between its read and its write', async () => {
    const other = openDb(file);
    other.$client.pragma('busy_timeout = 20');
    try {
      const n = await withTransaction(db, async () => {
        const seen = db.$client.prepare('SELECT n FROM t').pluck().get() as number;
        expect(() => other.$client.prepare('UPDATE t SET n = n + 10').run()).toThrow(/locked/);
        db.$client.prepare('UPDATE t SET n = ?').run(seen + 1);
        return seen + 1;
      });
      expect(n).toBe(1);
      other.$client.prepare('UPDATE t SET n = n + 10').run();
      expect(db.$client.prepare('SELECT n FROM t').pluck().get()).toBe(11);
    } finally {
      other.$client.close();
    }
  });

  it('nested transactions stay savepoints and a throw rolls the outer one back', async () => {
    await expect(
      withTransaction(db, async (tx) => {
        db.$client.prepare('UPDATE t SET n = 5').run();
        await withTransaction(tx, async () => db.$client.prepare('UPDATE t SET n = 6').run());
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(db.$client.prepare('SELECT n FROM t').pluck().get()).toBe(0);
    expect(db.$client.inTransaction).toBe(false);
  });
});
