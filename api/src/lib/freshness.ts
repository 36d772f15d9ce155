import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/client';

/**
 * The one cache mechanism of the API. Each cached read names the tables it reads; triggers
 * (migration 0001_cache_versions) bump a table's version on every row any connection writes,
 * so a value is served only while the versions it was built under are still current. Writers
 * never clear caches by hand, a write by another connection (the import/export worker, a
 * script) is seen by the next read, and writes to other tables (sign-ins, token refreshes,
 * audit rows, import progress) leave the value alone.
 *
 * SQLite-only: the versions live in a table kept by triggers (see the migration).
 */
export type Table =
  | 'users'
  | 'departments'
  | 'classes'
  | 'organizations'
  | 'organization_members'
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

const versionStatements = new WeakMap<Db, Statement<[], [string, number]>>();

/** Current versions of every tracked table (one small read, a few microseconds). */
export function tableVersions(db: Db): Map<string, number> {
  let s = versionStatements.get(db);
  if (!s) versionStatements.set(db, (s = db.$client.prepare<[], [string, number]>('SELECT name, version FROM cache_versions').raw()));
  // raw() again: the connection may hand this statement out elsewhere, which resets its mode (db/statement-cache.ts).
  return new Map(s.raw().all());
}

/** The versions of these tables as one comparable string. */
export function versionStamp(db: Db, tables: readonly Table[]): string {
  const v = tableVersions(db);
  return tables
    .map((t) => {
      const n = v.get(t);
      if (n === undefined) throw new Error(`freshness: table ${t} has no version trigger (add it to a migration)`);
      return n;
    })
    .join(',');
}

/**
 * Values computed from these tables, kept until one of them is written (per database: tests open
 * several in one process). At most `maxEntries` per database; past that the oldest half is dropped.
 * Inside a transaction nothing is stored or served: the transaction may see its own uncommitted
 * writes, and a rollback would bring the old versions back with a value built from rows that never existed.
 */
export function freshCache<T>(maxEntries: number, tables: readonly Table[]) {
  const perDb = new WeakMap<Db, { stamp: string; entries: Map<string, T> }>();
  return {
    get(db: Db, key: string, build: () => T): T {
      if (db.$client.inTransaction) return build();
      const stamp = versionStamp(db, tables);
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
