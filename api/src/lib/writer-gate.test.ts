/**
 * Issue 12: a request's light write must not wait behind an import. The request thread counts its
 * writes in progress (every way it writes, never its reads) and an import stands aside between
 * its batches while any is waiting, in its process or, through a mark beside the database file, in another.
 * Checked by structure, not by wall-clock time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openDb } from '../db/client';
import { importUsers, userRow } from '../imports/fixture';
import { makeTestApp, TEST_ENGINE } from '../test/harness';
import { Worker } from 'node:worker_threads';
import {
  countWrites,
  flagTransactions,
  gateBuffer,
  markWaiting,
  useWaitMark,
  writerHoldWaits,
  writersWaiting,
  writerYields,
  yieldToWriters,
} from './writer-gate';
import { existsSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withTransaction } from '../db/engine';

describe('the request thread counts its writes', () => {
  const db = openDb(':memory:');
  const c = db.$client;
  countWrites(c);
  c.function('writers', () => writersWaiting());
  c.exec('CREATE TABLE seen (n INTEGER)');

  it('inside a transaction, through drizzle or better-sqlite3, and back to zero after a rollback', async () => {
    let inside = -1;
    await withTransaction(db, async () => {
      inside = writersWaiting();
    });
    expect(inside).toBe(1);
    c.transaction(() => {
      inside = writersWaiting();
    }).immediate();
    expect(inside).toBe(1);
    await expect(
      withTransaction(db, async () => {
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
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

// SQLite only: on PostgreSQL a skipErrors import is one transaction (imports/runs.ts) and no writer lock waits on it.
describe.skipIf(TEST_ENGINE === 'pg')('an import stands aside for waiting writes', () => {
  const held = new Int32Array(gateBuffer());
  afterEach(() => {
    Atomics.store(held, 0, 0);
  });
  const rows = (prefix: string) =>
    Array.from({ length: 30 }, (_, i) =>
      userRow({ code: `${prefix}${i}`, familyName: 'Lê', givenName: `An${i}`, email: `${prefix.toLowerCase()}${i}@example.vn` }),
    );

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

describe('a request write waits for the job’s transaction on the gate, not in SQLite’s back-off', () => {
  const held = new Int32Array(gateBuffer());
  afterEach(() => {
    Atomics.store(held, 1, 0);
  });

  it('the job flags its outermost transaction only, until it ends, rolled back or not', async () => {
    const job = openDb(':memory:');
    flagTransactions(job.$client);
    const seen: number[] = [];
    await withTransaction(job, async (tx) => {
      seen.push(Atomics.load(held, 1));
      await withTransaction(tx, async () => seen.push(Atomics.load(held, 1)));
      seen.push(Atomics.load(held, 1));
    });
    seen.push(Atomics.load(held, 1));
    await expect(
      withTransaction(job, async () => {
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    seen.push(Atomics.load(held, 1));
    expect(seen).toEqual([1, 1, 1, 0, 0]);
  });

  it('waits while the flag is up and writes once the job lets go; never from inside its own transaction', async () => {
    const db = openDb(':memory:');
    const c = db.$client;
    countWrites(c);
    c.exec('CREATE TABLE w (n INTEGER)');
    const before = writerHoldWaits();

    // A job thread that holds the flag until it has been asked to let go.
    Atomics.store(held, 1, 1);
    const job = new Worker(
      `const { workerData, parentPort } = require('node:worker_threads');
       const gate = new Int32Array(workerData);
       parentPort.once('message', () => setTimeout(() => { Atomics.store(gate, 1, 0); Atomics.notify(gate, 1); }, 50));`,
      { eval: true, workerData: gateBuffer() },
    );
    job.postMessage('go');
    c.prepare('INSERT INTO w (n) VALUES (1)').run();
    expect(writerHoldWaits()).toBe(before + 1);
    expect(Atomics.load(held, 1)).toBe(0);
    await job.terminate();

    // Inside a transaction of ours the job may be waiting for our lock: no waiting there.
    await withTransaction(db, async () => {
      Atomics.store(held, 1, 1);
      c.prepare('INSERT INTO w (n) VALUES (2)').run();
      Atomics.store(held, 1, 0);
    });
    expect(writerHoldWaits()).toBe(before + 1);
    expect(c.prepare('SELECT n FROM w ORDER BY n').pluck().all()).toEqual([1, 2]);
  });
});

describe('a job stands aside for a write waiting in another API process (WEB_CONCURRENCY > 1)', () => {
  it('while the mark beside the database file is fresh, and not once it is stale', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'writer-mark-'));
    try {
      const file = join(dir, 'app.db');
      useWaitMark(file);
      // Another process's request, waiting for the lock, touches the mark at every try (write-turn.ts).
      markWaiting();
      expect(existsSync(`${file}-writers`)).toBe(true);
      // Touched "now" on a machine as busy as it may be: dated ahead, so it is still fresh when the job looks.
      utimesSync(`${file}-writers`, new Date(), new Date(Date.now() + 100));
      const before = writerYields();
      await yieldToWriters();
      expect(writerYields()).toBe(before + 1);
      // Left a second ago: the waiting write got its turn; the job goes on at once.
      const past = new Date(Date.now() - 1_000);
      utimesSync(`${file}-writers`, past, past);
      await yieldToWriters();
      expect(writerYields()).toBe(before + 1);
      // An in-memory database has no file beside it: nothing is written, nothing waited for.
      useWaitMark(':memory:');
      markWaiting();
      await yieldToWriters();
      expect(writerYields()).toBe(before + 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
