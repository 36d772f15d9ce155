/**
 * A request that writes waits for SQLite's write lock without stopping its process (issue 28).
 * better-sqlite3 is synchronous: a write that finds the lock taken — by an import's transaction in
 * this process's job thread, or by another API process — sleeps in SQLite's busy handler (or in
 * the writer gate's Atomics.wait) on the event loop's thread, and every request of that process,
 * the lightest GET included, waits behind it (a 10k-row import holds the lock for a second or
 * more). So before a POST/PUT/PATCH/DELETE runs its handler, the lock is tried without waiting;
 * while it is taken the request awaits a timer and tries again, and the process goes on answering.
 * What the handler then writes still goes through the busy timeout if the lock was taken again in
 * between: this only moves the long wait off the event loop, it decides nothing.
 */
import type { Database, Statement } from 'better-sqlite3';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { announceWriter, markWaiting } from './writer-gate';

/** Waiting longer than this falls back to the busy timeout, as before (then a 500 if still taken). */
const TURN_WAIT_MS = 5_000;
/** How long after its turn a request holds the job aside: its writes (a rate window, then its own transaction) are done well within it. */
const TURN_HOLD_MS = 500;
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Per connection, prepared once: parsing them on every try cost more than running them. */
const statements = new WeakMap<
  Database,
  { timeout: number; noWait: Statement<[]>; wait: Statement<[]>; begin: Statement<[]>; rollback: Statement<[]> }
>();

/** Whether the write lock is free now: BEGIN IMMEDIATE takes it without waiting, ROLLBACK gives it back. */
export function writeLockFree(sqlite: Database): boolean {
  let s = statements.get(sqlite);
  if (!s) {
    const timeout = sqlite.pragma('busy_timeout', { simple: true }) as number;
    // Transaction control and pragmas write nothing: the writer gate neither counts nor holds them.
    s = {
      timeout,
      noWait: sqlite.prepare<[]>('PRAGMA busy_timeout = 0'),
      wait: sqlite.prepare<[]>(`PRAGMA busy_timeout = ${timeout}`),
      begin: sqlite.prepare<[]>('BEGIN IMMEDIATE'),
      rollback: sqlite.prepare<[]>('ROLLBACK'),
    };
    statements.set(sqlite, s);
  }
  s.noWait.run();
  try {
    s.begin.run();
    s.rollback.run();
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return false;
    throw err;
  } finally {
    s.wait.run();
  }
}

/** Resolves once the lock is free, or after `limitMs`. */
export async function awaitWriteLock(sqlite: Database, limitMs = TURN_WAIT_MS): Promise<void> {
  const until = performance.now() + limitMs;
  // Short steps at first (a batch of an import ends within milliseconds), then every 8 ms.
  for (let step = 1; performance.now() < until; step = Math.min(step * 2, 8)) {
    // A job in another API process sees this and stands aside at its next batch (writer-gate.ts).
    markWaiting();
    await new Promise((r) => setTimeout(r, step));
    if (writeLockFree(sqlite)) return;
  }
}

export function writeTurn(sqlite: Database): MiddlewareHandler {
  // A read passes straight on: no async frame of its own (a few promises a request).
  return (c, next) => (READS.has(c.req.method) ? next() : writeInTurn(sqlite, c, next));
}

async function writeInTurn(sqlite: Database, c: Context, next: Next): Promise<void> {
  // A JSON body is read first (Hono keeps it for the validator, a bad one fails there as before), so
  // no wait for the network lies between finding the lock free and the handler's write.
  if (c.req.header('content-type')?.startsWith('application/json')) await c.req.json().catch(() => undefined);
  if (sqlite.inTransaction || writeLockFree(sqlite)) return next();
  // Taken: the import in this process's thread stands aside at its next batch while this request waits and
  // writes — for as long as a light write takes, not until the request answers: an import's execute awaits the
  // whole import (whose writes are the job's), and held its own job aside 250 ms after every batch (a 10k import,
  // 4 s alone, took 29 s when its execute found the lock taken by another process's write).
  const release = announceWriter();
  let hold: NodeJS.Timeout | undefined;
  try {
    await awaitWriteLock(sqlite);
    hold = setTimeout(release, TURN_HOLD_MS).unref();
    await next();
  } finally {
    clearTimeout(hold);
    release();
  }
}
