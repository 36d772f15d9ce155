import type { Db } from '../db/client';

/**
 * A value built once per database, for prepared statements above all: building drizzle's SQL
 * costs more than running a hot query. Per database because tests open several in one process.
 */
export function perDb<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  return (db) => {
    let value = built.get(db);
    if (value === undefined) built.set(db, (value = build(db)));
    return value;
  };
}
