/**
 * A light write must not wait behind a long import (issue 12). SQLite has one writer: a request's
 * write that finds the import worker's batch holding the lock sleeps in SQLite's busy back-off, and
 * the worker, committing and starting its next batch at once, could win the lock again and again
 * (writes waited up to 2.7 s). The request thread counts its writes in progress in a shared
 * Int32Array; the worker looks at it after each committed batch and waits while it is non-zero,
 * so the waiting write gets the lock as soon as the batch ends.
 */
import type { Database } from 'better-sqlite3';
import { statSync, writeFileSync } from 'node:fs';
import { aroundTransactions } from '../db/engine';

/**
 * [0]: the request thread's writes in progress; [1]: 1 while the job (worker) is inside a write
 * transaction. A request write that finds [1] set waits on it (Atomics.wait) instead of in SQLite's
 * busy back-off, whose sleeps of 10–25 ms overshoot the moment the job commits.
 */
let gate = new Int32Array(new SharedArrayBuffer(8));
/** How often a job has stood aside for the request thread's writes (tests check it happens). */
let yields = 0;

/** The shared counter, to hand to the worker through workerData. */
export function gateBuffer(): SharedArrayBuffer {
  return gate.buffer as SharedArrayBuffer;
}

/** In the worker: use the request thread's counter. */
export function useGate(buffer: SharedArrayBuffer): void {
  gate = new Int32Array(buffer);
}

export function writersWaiting(): number {
  return Atomics.load(gate, 0);
}

export function writerYields(): number {
  return yields;
}

function enter(): void {
  Atomics.add(gate, 0, 1);
}

function leave(): void {
  Atomics.sub(gate, 0, 1);
  Atomics.notify(gate, 0);
}

/** A request that will write and is waiting for the lock: the job stands aside at its next batch until the returned release. */
export function announceWriter(): () => void {
  enter();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    leave();
  };
}

/** How long a request write waits for the job's transaction before leaving it to SQLite's busy timeout. */
const HOLD_WAIT_MS = 5000;
/** How often a request write has waited for the job's transaction to end (tests check it happens). */
let holdWaits = 0;

export function writerHoldWaits(): number {
  return holdWaits;
}

/** Counts a write in progress; outside a transaction of our own, first waits for the job's to end. */
function enterWrite(sqlite: Database): void {
  enter();
  // Not from inside a transaction of our own: the job may then be waiting for our lock.
  if (!sqlite.inTransaction && Atomics.load(gate, 1) === 1) {
    holdWaits++;
    Atomics.wait(gate, 1, 1, HOLD_WAIT_MS);
  }
}

function counted<A extends unknown[], R>(sqlite: Database, fn: (...args: A) => R): (...args: A) => R {
  return (...args: A) => {
    enterWrite(sqlite);
    try {
      return fn(...args);
    } finally {
      leave();
    }
  };
}

type Wrap = <A extends unknown[], R>(run: (...args: A) => R) => (...args: A) => R;

/** Runs every transaction of the connection (each of its modes too) through `wrap`. */
function wrapTransactions(sqlite: Database, wrap: Wrap): void {
  const transaction = sqlite.transaction.bind(sqlite);
  sqlite.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const tx = transaction(fn);
    const wrapped = wrap(tx) as unknown as typeof tx;
    for (const mode of ['deferred', 'immediate', 'exclusive'] as const) wrapped[mode] = wrap(tx[mode]);
    wrapped.default = wrapped;
    return wrapped;
  }) as typeof sqlite.transaction;
}

/**
 * Counts every write of this connection (the request thread's): transactions, through drizzle or
 * not, and statements run outside one. Reads are not counted: WAL readers never wait for the worker.
 */
export function countWrites(sqlite: Database): void {
  useWaitMark(sqlite.name);
  const count: Wrap = (fn) => counted(sqlite, fn);
  wrapTransactions(sqlite, count);
  aroundTransactions(sqlite, { begin: () => enterWrite(sqlite), end: leave });
  const prepare = sqlite.prepare.bind(sqlite);
  // The connection hands the same statement out again (db/statement-cache.ts): wrap it once.
  const wrapped = new WeakSet<object>();
  sqlite.prepare = ((source: string) => {
    const stmt = prepare(source);
    if (!stmt.readonly && !wrapped.has(stmt)) {
      wrapped.add(stmt);
      // INSERT … RETURNING is read with get/all: every way of running a writing statement counts.
      stmt.run = count(stmt.run.bind(stmt)) as typeof stmt.run;
      stmt.get = count(stmt.get.bind(stmt)) as typeof stmt.get;
      stmt.all = count(stmt.all.bind(stmt)) as typeof stmt.all;
    }
    return stmt;
  }) as typeof sqlite.prepare;
}

/**
 * In the job's thread: flags its outermost transactions in the gate ([1]) and wakes a request write
 * waiting on the flag the moment each one ends.
 */
export function flagTransactions(sqlite: Database): void {
  useWaitMark(sqlite.name);
  const end = () => {
    Atomics.store(gate, 1, 0);
    Atomics.notify(gate, 1);
  };
  wrapTransactions(sqlite, (run) => (...args) => {
    if (sqlite.inTransaction) return run(...args);
    Atomics.store(gate, 1, 1);
    try {
      return run(...args);
    } finally {
      end();
    }
  });
  aroundTransactions(sqlite, { begin: () => Atomics.store(gate, 1, 1), end });
}

// Node has had Atomics.waitAsync since 16; the TypeScript lib we target (ES2022) does not declare it.
const waitAsync = (
  Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number, ms: number): { async: boolean; value: Promise<string> | string } }
).waitAsync;

/**
 * Across processes (issue 28, WEB_CONCURRENCY > 1): the gate above is one process's memory, so a write waiting in
 * another API process went unseen and the job, committing and beginning its next batch at once, kept the lock from
 * it for up to 1.9 s (a phone change during a 10k import, 2 processes; 35 ms with one). A request waiting for the
 * lock touches a file beside the database (`<file>-writers`) at every try; a job between batches stands aside while
 * the file was touched within WAIT_MARK_FRESH_MS. Nothing to remove: a mark no one refreshes goes stale by itself.
 */
let waitMark: string | null = null;
const WAIT_MARK_FRESH_MS = 20;

/** Both the request thread and the job's use the mark of the database file they open (none in memory). */
export function useWaitMark(databaseFile: string): void {
  waitMark = databaseFile && databaseFile !== ':memory:' ? `${databaseFile}-writers` : null;
}

/** In a request waiting for the write lock: tells a job in any process to stand aside at its next batch. */
export function markWaiting(): void {
  if (!waitMark) return;
  try {
    writeFileSync(waitMark, '');
  } catch {
    /* a read-only directory: the gate in memory still serves this process's job */
  }
}

/** Whether a request of another process (or this one) touched the mark just now. */
function writerWaitingElsewhere(): boolean {
  if (!waitMark) return false;
  try {
    return Date.now() - statSync(waitMark).mtimeMs < WAIT_MARK_FRESH_MS;
  } catch {
    return false;
  }
}

/** The longest a job stands aside per batch, so a steady stream of writes cannot stall it. */
const MAX_WAIT_MS = 250;

/** In a job, between two committed batches: wait until the writes waiting in this process and in the others are done. */
export async function yieldToWriters(): Promise<void> {
  const until = performance.now() + MAX_WAIT_MS;
  let stood = false;
  for (;;) {
    const left = until - performance.now();
    if (left <= 0) break;
    const n = Atomics.load(gate, 0);
    if (n > 0) {
      const w = waitAsync(gate, 0, n, left);
      if (w.async) await w.value;
    } else if (writerWaitingElsewhere()) await new Promise((r) => setTimeout(r, 2));
    else break;
    stood = true;
  }
  if (stood) yields++;
}
