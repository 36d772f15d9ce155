import type { Statement } from 'better-sqlite3';
import { currentFrame, inFrame } from '../db/async-frame';
import type { Db } from '../db/client';
import { currentTransaction, pgWrites } from '../db/engine';
import { isPg, pgPoolOf } from '../db/postgres';

/**
 * The one cache mechanism of the API. Each cached read names the tables it reads; triggers
 * (migration 0001_cache_versions) bump a table's version on every row any connection writes,
 * so a value is served only while the versions it was built under are still current. Writers
 * never clear caches by hand, a write by another connection (the import/export worker, a
 * script) is seen by the next read, and writes to other tables (sign-ins, token refreshes,
 * audit rows, import progress) leave the value alone.
 *
 * On SQLite the versions live in cache_versions, kept by triggers (see the migration); on
 * PostgreSQL in the stripes of freshness.counters, summed by the view freshness.versions
 * (drizzle-pg 0002, 0023): one stripe bumped per writing statement, so writers never queue on one hot row. PostgreSQL has no
 * cheap probe like data_version: a request uses versions read since it began (pgVersions), read
 * again after any statement of this process that may have written.
 */
export type Table =
  | 'users'
  // Column groups of users (migration 0045): bumped only when those columns change, so a read that
  // needs no other column of users (an actor, a count) survives a phone or name change.
  | 'users:access'
  | 'users:counted'
  | 'users:search'
  // What a search without a piece beginning with a digit follows: a phone change leaves it (drizzle-pg 0015, SQLite 0051).
  | 'users:words'
  | 'departments'
  | 'classes'
  | 'organizations'
  | 'organization_members'
  // Who is in the subtrees under one second-level unit (its id modulo 16), or in the top-level units: their member_scopes
  // rows (drizzle-pg 0036); SQLite's membership triggers (0052).
  | `member_scopes:${MemberBucket}`
  | 'member_scopes:top'
  | 'permissions'
  | 'role_permissions'
  | 'roles'
  | 'user_roles'
  | 'audit_logs'
  | 'fee_levels'
  | 'payment_assignments'
  | 'payment_campaigns'
  | 'payment_orders'
  | 'payment_transactions'
  | 'payos_configs';

export type MemberBucket = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15;
export const MEMBER_BUCKETS = 16;

interface Versions {
  read: Statement<[], [string, number]>;
  changesProbe: Statement<[], number>;
  dataVersionProbe: Statement<[], number>;
  changes: number;
  dataVersion: number;
  /** The read epoch the versions were last confirmed in. */
  epoch: number;
  versions?: Map<string, number>;
  stamps: WeakMap<readonly Table[], string>;
}
const perConnection = new WeakMap<Db, Versions>();

let epoch = 0;
let epochEnds = false;

/**
 * Starts a new read epoch: an HTTP request arriving, or a message from a job that may have
 * committed. Versions confirmed in an earlier epoch are confirmed again (PRAGMA data_version)
 * before use; within one epoch only this connection's own writes are looked for. An epoch also
 * ends with the event-loop turn, so a timer's job never relies on a request's confirmation.
 */
export function newReadEpoch(): void {
  epoch++;
}

/** Runs a request in a read epoch of its own, which every await inside it keeps (PostgreSQL: pgVersions). */
export function inReadEpoch<T>(run: () => T): T {
  newReadEpoch();
  return inFrame({ epoch }, run);
}

function confirmedInThisEpoch(v: { epoch: number }): void {
  v.epoch = epoch;
  endEpochWithTurn();
}

function endEpochWithTurn(): void {
  if (!epochEnds) {
    epochEnds = true;
    setImmediate(() => {
      epochEnds = false;
      epoch++;
    });
  }
}

/**
 * Current versions of every tracked table. A request asks several times (its actor, its scope,
 * its page), so the last answer is kept while the connection has changed no row
 * (total_changes(), a fraction of a microsecond) and no other connection has committed (PRAGMA
 * data_version, which opens a read transaction: a quarter of reading the versions, asked once
 * per read epoch). Never inside a transaction, whose rollback would bring back versions the kept
 * answer no longer shows.
 */
function connectionVersions(db: Db): Versions {
  let v = perConnection.get(db);
  if (!v) {
    const c = db.$client;
    v = {
      read: c.prepare<[], [string, number]>('SELECT name, version FROM cache_versions').raw(),
      changesProbe: c.prepare<[], number>('SELECT total_changes()').pluck(),
      dataVersionProbe: c.prepare<[], number>('PRAGMA data_version').pluck(),
      changes: -1,
      dataVersion: -1,
      epoch: -1,
      stamps: new WeakMap(),
    };
    perConnection.set(db, v);
  }
  const inTransaction = db.$client.inTransaction;
  // pluck()/raw() again: the connection may hand these statements out elsewhere, which resets their mode (db/statement-cache.ts).
  const changes = v.changesProbe.pluck().get()!;
  if (v.versions && !inTransaction && changes === v.changes) {
    if (v.epoch === epoch) return v;
    if (v.dataVersionProbe.pluck().get() === v.dataVersion) {
      confirmedInThisEpoch(v);
      return v;
    }
  }
  const dataVersion = v.dataVersionProbe.pluck().get()!;
  v.versions = new Map(v.read.raw().all());
  v.stamps = new WeakMap();
  if (inTransaction) v.changes = -1;
  else {
    [v.changes, v.dataVersion] = [changes, dataVersion];
    confirmedInThisEpoch(v);
  }
  return v;
}

interface PgVersions {
  /** The epoch when the read was sent: it saw every commit made before any request of an earlier epoch began. */
  epoch: number;
  writes: number;
  versions: Map<string, number>;
  stamps: WeakMap<readonly Table[], string>;
}
const perPgDb = new WeakMap<Db, PgVersions>();
// Named: each connection parses and plans it once (it runs about once a request).
const VERSIONS_READ = { name: 'freshness_versions', text: 'SELECT name, version FROM freshness.versions' };
const inFlight = new WeakMap<Db, { epoch: number; writes: number; read: Promise<PgVersions> }>();
/** The read to be sent at the end of this event-loop turn (or when the one in flight answers): not sent yet. */
const scheduled = new WeakMap<Db, Promise<PgVersions>>();

/**
 * The versions for a request: any read sent since the request began serves it, its own or another
 * request's (one in flight is awaited), unless this process may have written since that read was
 * sent. A read is sent at the end of the event-loop turn in which the first request asked, so the
 * requests that arrive in the same turn share it; one read is in flight at a time, and requests that
 * began after it was sent share the next one, sent once it answers. Under twenty concurrent requests
 * this is a fraction of a read per request, where an epoch ending at every await and every arriving
 * request made it three (docs/benchmark.md).
 * Outside a request (a job) the epoch ends with the event-loop turn, as on SQLite.
 */
async function pgVersions(db: Db): Promise<PgVersions> {
  const need = currentFrame()?.epoch ?? epoch;
  const writes = pgWrites();
  const v = perPgDb.get(db);
  if (v && v.epoch >= need && v.writes === writes) return v;
  const pending = inFlight.get(db);
  if (pending && pending.epoch >= need && pending.writes === writes) return await pending.read;
  // Not sent yet: it will be sent after this request began and after every write it made.
  return await (scheduled.get(db) ?? scheduleRead(db, pending?.read));
}

/** A read sent at the end of this turn, after the one in flight (if any) has answered or failed. */
function scheduleRead(db: Db, after: Promise<unknown> | undefined): Promise<PgVersions> {
  const read = (async () => {
    if (after)
      await after.then(
        () => undefined,
        () => undefined,
      );
    await new Promise<void>((resolve) => setImmediate(resolve));
    scheduled.delete(db);
    return await sendVersionsRead(db);
  })();
  scheduled.set(db, read);
  return read;
}

function sendVersionsRead(db: Db): Promise<PgVersions> {
  const sent = { epoch, writes: pgWrites() };
  const read = (async () => {
    // Straight on the pool (never inside a transaction here), so this read is not counted as a possible write.
    const { rows } = await pgPoolOf(db)!.query<{ name: string; version: number }>(VERSIONS_READ);
    const fresh: PgVersions = { ...sent, versions: new Map(rows.map((r) => [r.name, r.version])), stamps: new WeakMap() };
    endEpochWithTurn();
    const latest = perPgDb.get(db);
    if (!latest || latest.epoch < fresh.epoch || (latest.epoch === fresh.epoch && latest.writes <= fresh.writes)) perPgDb.set(db, fresh);
    return fresh;
  })();
  inFlight.set(db, { ...sent, read });
  const answered = () => {
    if (inFlight.get(db)?.read === read) inFlight.delete(db);
  };
  void read.then(answered, answered);
  return read;
}

function stampOf(v: { versions?: Map<string, number>; stamps: WeakMap<readonly Table[], string> }, tables: readonly Table[]): string {
  let stamp = v.stamps.get(tables);
  if (stamp === undefined) {
    stamp = tables
      .map((t) => {
        const n = v.versions!.get(t);
        if (n === undefined) throw new Error(`freshness: table ${t} has no version trigger (add it to a migration)`);
        return n;
      })
      .join(',');
    v.stamps.set(tables, stamp);
  }
  return stamp;
}

/** The versions of these tables as one comparable string (SQLite: synchronous, for its tests and jobs). */
export function versionStamp(db: Db, tables: readonly Table[]): string {
  return stampOf(connectionVersions(db), tables);
}

/** The versions of these tables as one comparable string, on either engine. */
export async function currentStamp(db: Db, tables: readonly Table[]): Promise<string> {
  return isPg(db) ? stampOf(await pgVersions(db), tables) : versionStamp(db, tables);
}

const inTransaction = (db: Db) => (isPg(db) ? currentTransaction() !== undefined : db.$client.inTransaction);

/**
 * Values computed from these tables, kept until one of them is written (per database: tests open
 * several in one process). At most `maxEntries` per database, or that total of `weigh` (a page's
 * rows, so that large pages cannot fill memory); past that the oldest half is dropped, and a value
 * heavier than all of it is not kept.
 * Inside a transaction nothing is stored or served: the transaction may see its own uncommitted
 * writes, and a rollback would bring the old versions back with a value built from rows that never existed.
 */
export function freshCache<T>(maxEntries: number, tables: readonly Table[], weigh: (value: T) => number = () => 1) {
  const perDb = new WeakMap<Db, { stamp: string; entries: Map<string, { value: T; weight: number }>; weight: number }>();
  return {
    async get(db: Db, key: string, build: () => Promise<T>): Promise<T> {
      if (inTransaction(db)) return build();
      const stamp = await currentStamp(db, tables);
      let c = perDb.get(db);
      if (!c || c.stamp !== stamp) perDb.set(db, (c = { stamp, entries: new Map(), weight: 0 }));
      const hit = c.entries.get(key);
      if (hit !== undefined) return hit.value;
      const value = await build();
      // Kept only if nothing it read changed while it was built (a write of another request may run between its statements).
      if (inTransaction(db) || (await currentStamp(db, tables)) !== stamp || perDb.get(db) !== c) return value;
      const weight = Math.max(1, weigh(value));
      if (weight > maxEntries) return value;
      if (c.weight + weight > maxEntries) {
        // The oldest half goes.
        for (const [k, e] of c.entries) {
          if (c.weight <= maxEntries / 2) break;
          c.entries.delete(k);
          c.weight -= e.weight;
        }
      }
      c.entries.set(key, { value, weight });
      c.weight += weight;
      return value;
    },
  };
}

/** A freshCache per list of tables, made on first use: for values cached under whichever tables each call names. */
export function freshCachesByTables<T>(maxEntries: number) {
  const byTables = new Map<string, ReturnType<typeof freshCache<T>>>();
  return (tables: readonly Table[]) => {
    const key = tables.join(',');
    let c = byTables.get(key);
    if (!c) byTables.set(key, (c = freshCache<T>(maxEntries, tables)));
    return c;
  };
}
