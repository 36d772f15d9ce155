/**
 * Every statement the services run goes through here, awaited (issue 29 item 2): the same code will
 * run on PostgreSQL, whose driver only answers asynchronously. On SQLite the statements still run
 * synchronously on the one better-sqlite3 connection, so an awaited transaction body must not let
 * another request's statements in: while a transaction is open, statements from any other async
 * context wait at the gate until it commits or rolls back, and transactions queue. A body awaits
 * nothing but its own statements (no network, no hashing), so the wait is a few microtasks.
 *
 * The raw connection (`db.$client`: freshness stamps, shared counters, leases) stays synchronous;
 * those modules are engine-specific by design (db/sqlite.ts).
 */
import { entityKind, inArray, is, sql, type Column, type SQLWrapper, type Table } from 'drizzle-orm';
import { PgPreparedQuery, PgSelectQueryBuilderBase } from 'drizzle-orm/pg-core';
import { currentFrame, inFrame, type SqliteFrame } from './async-frame';
import type { Db } from './client';
import { isPg, pgPoolOf } from './postgres';

/** The transaction open in this process, if any: one at a time (an API process has one connection). */
let open: { frame: SqliteFrame; done: Promise<void> } | undefined;

function mustWait(): boolean {
  return open !== undefined && open.frame !== currentFrame()?.sqlite;
}

/** Resolves once no transaction of another async context is open. */
async function gate(): Promise<void> {
  while (mustWait()) await open!.done;
}

type Params = Record<string, unknown>;

/** What runs around each outermost transaction of a connection, before BEGIN and after its end. */
export interface TransactionHooks {
  begin(): void;
  end(): void;
}
const hooksOf = new WeakMap<object, TransactionHooks>();

/** Adds hooks around the outermost transactions of `client` (lib/writer-gate.ts: the import's gate). */
export function aroundTransactions(client: object, hooks: TransactionHooks): void {
  const before = hooksOf.get(client);
  hooksOf.set(
    client,
    before
      ? {
          begin: () => (before.begin(), hooks.begin()),
          end: () => (hooks.end(), before.end()),
        }
      : hooks,
  );
}

/** A PostgreSQL builder or prepared query: it runs with execute(), where SQLite's has all/get/run/values. */
type PgRunnable = { execute(params?: Params): Promise<unknown> };

/**
 * How many statements that may have written ran on PostgreSQL in this process (lib/freshness.ts:
 * versions read earlier in a request are read again after one). Reads by a select builder do not count.
 */
let pgWriteSeq = 0;

export function pgWrites(): number {
  return pgWriteSeq;
}

/**
 * Runs a PostgreSQL statement; one that may have written is counted once it has run (its effect
 * visible). `mayWrite` may look at the result (a raw statement's command); a failure counts.
 */
async function pgRun<T>(run: () => Promise<T>, mayWrite: boolean | ((result: T) => boolean)): Promise<T> {
  let wrote = true;
  try {
    const result = await run();
    wrote = typeof mayWrite === 'function' ? mayWrite(result) : mayWrite;
    return result;
  } finally {
    if (wrote) pgWriteSeq++;
  }
}

/** A select builder, a relational query or a prepared SELECT: reads only. */
function pgReadOnly(q: object): boolean {
  if (is(q, PgSelectQueryBuilderBase)) return true;
  if ((q.constructor as unknown as Record<symbol, unknown>)[entityKind] === 'PgRelationalQuery') return true;
  return is(q, PgPreparedQuery) && /^\s*select\b/i.test((q as { queryString?: string }).queryString ?? '');
}

function onPg(q: object): q is PgRunnable {
  return typeof (q as { all?: unknown }).all !== 'function' || is(q, PgPreparedQuery);
}

/** What a write answers on either engine: the rows it changed, as better-sqlite3's RunResult. */
function runResult(r: unknown): { changes: number; lastInsertRowid: number } {
  const changes = Array.isArray(r) ? r.length : ((r as { rowCount?: number | null }).rowCount ?? 0);
  return { changes, lastInsertRowid: 0 };
}

/** Every row of a query (a drizzle builder or prepared query). */
export async function allRows<T>(q: { all(params?: Params): T }, params?: Params): Promise<T> {
  if (onPg(q)) return (await pgRun(() => q.execute(params), !pgReadOnly(q))) as T;
  if (mustWait()) await gate();
  return q.all(params);
}

/** The first row, or undefined. */
export async function firstRow<T>(q: { get(params?: Params): T }, params?: Params): Promise<T> {
  if (onPg(q)) return ((await pgRun(() => q.execute(params), !pgReadOnly(q))) as T[])[0] as T;
  if (mustWait()) await gate();
  return q.get(params);
}

/** Runs a write (or any statement whose rows are not wanted). */
export async function runQuery<T>(q: { run(params?: Params): T }, params?: Params): Promise<T> {
  if (onPg(q)) return runResult(await pgRun(() => q.execute(params), true)) as T;
  if (mustWait()) await gate();
  return q.run(params);
}

/**
 * Runs `body` in one IMMEDIATE transaction: committed when it resolves, rolled back when it throws.
 * Nested calls become savepoints. Statements of other async contexts wait until it ends.
 */
export async function withTransaction<T>(db: Db, body: (tx: Db) => Promise<T>): Promise<T> {
  if (isPg(db)) return pgTransaction(db, body);
  const own = currentFrame()?.sqlite;
  if (own && open?.frame === own) return savepoint(db, own, body);
  // Begins at once when nothing is open, so statements issued after this call wait for it.
  while (open) await open.done;
  const frame: SqliteFrame = { savepoints: 0 };
  let end!: () => void;
  open = { frame, done: new Promise<void>((resolve) => (end = resolve)) };
  const hooks = hooksOf.get(db.$client);
  hooks?.begin();
  try {
    db.$client.prepare('BEGIN IMMEDIATE').run();
    let result: T;
    try {
      result = await inFrame({ sqlite: frame }, () => body(db));
    } catch (err) {
      if (db.$client.inTransaction) db.$client.prepare('ROLLBACK').run();
      throw err;
    }
    db.$client.prepare('COMMIT').run();
    return result;
  } finally {
    hooks?.end();
    open = undefined;
    end();
  }
}

async function savepoint<T>(db: Db, frame: SqliteFrame, body: (tx: Db) => Promise<T>): Promise<T> {
  const name = `sp${++frame.savepoints}`;
  db.$client.prepare(`SAVEPOINT ${name}`).run();
  try {
    const result = await body(db);
    db.$client.prepare(`RELEASE ${name}`).run();
    return result;
  } catch (err) {
    db.$client.prepare(`ROLLBACK TO ${name}`).run();
    db.$client.prepare(`RELEASE ${name}`).run();
    throw err;
  }
}

/** What raw SQL runs on: the app's database or any drizzle SQLite handle. */
export type SqlRunner = Pick<Db, 'all' | 'get' | 'run' | 'values'>;

type PgResult = { rows: unknown[]; rowCount: number | null; command?: string };
/** Raw SQL may write (INSERT … RETURNING through sqlGet): counted unless the server says it was a SELECT. */
const pgRaw = (db: SqlRunner, query: SQLWrapper | string): Promise<PgResult> =>
  pgRun(
    () => (db as unknown as { execute(q: SQLWrapper): Promise<PgResult> }).execute(typeof query === 'string' ? sql.raw(query) : query),
    (r) => r.command !== 'SELECT',
  );

/** Raw SQL on the database handle (`db.all(sql…)` and friends), through the same gate. */
export async function sqlAll<T>(db: SqlRunner, query: SQLWrapper | string): Promise<T[]> {
  if (isPg(db)) return (await pgRaw(db, query)).rows as T[];
  if (mustWait()) await gate();
  return db.all<T>(query);
}

export async function sqlGet<T>(db: SqlRunner, query: SQLWrapper | string): Promise<T> {
  if (isPg(db)) return (await pgRaw(db, query)).rows[0] as T;
  if (mustWait()) await gate();
  return db.get<T>(query);
}

export async function sqlRun(db: SqlRunner, query: SQLWrapper | string) {
  if (isPg(db)) return runResult(await pgRaw(db, query)) as ReturnType<SqlRunner['run']>;
  if (mustWait()) await gate();
  return db.run(query);
}

/**
 * PostgreSQL: one pooled connection per transaction, which every statement of its async context
 * runs on (db/postgres.ts routes them); other requests use other connections, isolated by the
 * server. Nested calls become savepoints.
 */
async function pgTransaction<T>(db: Db, body: (tx: Db) => Promise<T>): Promise<T> {
  const frame = currentFrame()?.pg;
  if (frame) {
    const name = `sp${++frame.savepoints}`;
    await frame.client.query(`SAVEPOINT ${name}`);
    try {
      const result = await body(db);
      await frame.client.query(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (err) {
      await frame.client.query(`ROLLBACK TO SAVEPOINT ${name}`);
      throw err;
    }
  }
  const client = await pgPoolOf(db)!.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    try {
      const result = await inFrame({ pg: { client, savepoints: 0 } }, () => body(db));
      await pgRun(() => client.query('COMMIT'), true);
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => (broken = true));
      throw err;
    }
  } finally {
    client.release(broken);
  }
}

/**
 * PostgreSQL: runs `work` with its statements on the pool, outside the transaction this async
 * context is in, so they commit at once and other connections see them while that transaction is
 * still open (a long import's progress). It must not touch a row the transaction has written: it
 * would wait for the transaction, which waits for it. SQLite has one connection, whose statements
 * outside the open transaction would wait for it to end: refused there.
 */
export function outsideTransaction<T>(db: Db, work: () => Promise<T>): Promise<T> {
  if (!isPg(db)) throw new Error('outsideTransaction: PostgreSQL only');
  return inFrame({ pg: undefined }, work);
}

/** The transaction this async context runs in (a key for per-transaction memos), or undefined. */
export function currentTransaction(): object | undefined {
  const frame = currentFrame();
  if (frame?.pg) return frame.pg;
  const own = frame?.sqlite;
  return own && open?.frame === own ? own : undefined;
}

/** PostgreSQL's row locks that lockRows takes: `share` lets other sharers in and keeps writers out. */
const LOCK_MODES = { update: 'update', 'no key update': 'no key update', share: 'share' } as const;
const LOCK_SLICE = 10_000;

/**
 * Locks these rows until the transaction ends, so what it read then decides on cannot change under
 * it (issue 29 item 3): PostgreSQL's READ COMMITTED lets two transactions read the same row and both
 * pass a check, so a read-then-write locks first and reads again. In id order, so two transactions
 * locking the same rows wait for each other instead of deadlocking. SQLite: nothing to do, a write
 * transaction there is BEGIN IMMEDIATE and already holds the only write lock.
 */
export async function lockRows(
  db: Db,
  table: Table & { id: Column },
  ids: readonly number[],
  mode: keyof typeof LOCK_MODES = 'update',
): Promise<void> {
  if (!isPg(db) || ids.length === 0) return;
  // Outside a transaction the lock would end with its own statement: a caller's mistake, not a lock.
  if (!currentFrame()?.pg) throw new Error('lockRows outside a transaction');
  // In ascending slices: a campaign's fees can outnumber the parameters one statement may bind.
  const sorted = [...new Set(ids)].sort((x, y) => x - y);
  for (let i = 0; i < sorted.length; i += LOCK_SLICE) {
    const slice = sorted.slice(i, i + LOCK_SLICE);
    await sqlRun(db, sql`select 1 from ${table} where ${inArray(table.id, slice)} order by ${table.id} for ${sql.raw(LOCK_MODES[mode])}`);
  }
}
