/**
 * The process's one AsyncLocalStorage. Node 20 stores every enabled instance's value on each
 * promise created (a property per instance, set by a JavaScript hook on every promise), and a request
 * creates hundreds: with three instances (the request's read epoch, SQLite's transaction,
 * PostgreSQL's transaction connection) the hook cost about twice what one costs. So all three live in
 * one frame, copied with the part that changes whenever a request or a transaction begins.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

/** PostgreSQL: a transaction's connection and how deep its savepoints go. */
export interface PgFrame {
  client: pg.PoolClient;
  savepoints: number;
}

/** SQLite: the transaction this async context opened (its savepoints' depth). */
export interface SqliteFrame {
  savepoints: number;
}

export interface AsyncFrame {
  /** The read epoch the request began in (lib/freshness.ts). */
  readonly epoch?: number;
  /** SQLite: the transaction this context runs in (db/engine.ts). */
  readonly sqlite?: SqliteFrame;
  /** PostgreSQL: the transaction whose connection this context's statements use (db/postgres.ts). */
  readonly pg?: PgFrame;
}

const storage = new AsyncLocalStorage<AsyncFrame>();

export function currentFrame(): AsyncFrame | undefined {
  return storage.getStore();
}

/** Runs `run` with the current frame changed by `changes` (a key given as undefined clears that part). */
export function inFrame<T>(changes: AsyncFrame, run: () => T): T {
  return storage.run({ ...storage.getStore(), ...changes }, run);
}
