import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/client';

/**
 * A value that changes whenever the database has been written: SQLite's total_changes() counts the
 * rows this connection inserted, updated or deleted, and data_version moves on commits by other
 * connections. Caches of read models compare it on each read, because their rows are written by
 * many modules (memberships by users, imports and cascades; class and department names by their
 * own screens) and those writers should not need to know every cache.
 */
interface Probe {
  changes: Statement<[], number>;
  version: Statement<[], number>;
  /** data_version and when it was last read. */
  v: number;
  at: number;
}
const probes = new WeakMap<Db, Probe>();
/**
 * total_changes() costs nothing (no read transaction), but data_version opens one (~3 µs, several
 * times that under load). Only another process can move data_version (this process has one
 * connection), so it is re-read at most this often: such writes show within a quarter second.
 */
const VERSION_EVERY_MS = 250;

export function writeStamp(db: Db): string {
  let p = probes.get(db);
  if (!p) {
    p = {
      changes: db.$client.prepare<[], number>('SELECT total_changes()').pluck(),
      version: db.$client.prepare<[], number>('PRAGMA data_version').pluck(),
      v: 0,
      at: -Infinity,
    };
    probes.set(db, p);
  }
  const now = performance.now();
  if (now - p.at >= VERSION_EVERY_MS) {
    p.v = p.version.get()!;
    p.at = now;
  }
  return `${p.changes.get()}:${p.v}`;
}

/**
 * Values computed from the database, kept until its next write (per database: tests open several
 * in one process). At most `maxEntries` per database; past that the oldest half is dropped.
 */
export function freshCache<T>(maxEntries: number) {
  const perDb = new WeakMap<Db, { stamp: string; entries: Map<string, T> }>();
  return {
    get(db: Db, key: string, build: () => T): T {
      const stamp = writeStamp(db);
      let c = perDb.get(db);
      if (!c || c.stamp !== stamp) perDb.set(db, (c = { stamp, entries: new Map() }));
      const hit = c.entries.get(key);
      if (hit !== undefined) return hit;
      const value = build();
      if (c.entries.size >= maxEntries) {
        let drop = Math.ceil(maxEntries / 2);
        for (const k of c.entries.keys()) {
          if (drop-- <= 0) break;
          c.entries.delete(k);
        }
      }
      c.entries.set(key, value);
      return value;
    },
  };
}
