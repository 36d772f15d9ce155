/**
 * PostgreSQL's column types where SQLite's have no direct twin (issue 29, docs/decisions.md):
 * instants stay epoch milliseconds in a bigint, as SQLite stores them, read and written as Date as
 * drizzle's timestamp_ms mode does, so rows, raw SQL arithmetic and db:copy are the same on both.
 */
import { customType } from 'drizzle-orm/pg-core';

export const epochMs = customType<{ data: Date; driverData: string | number }>({
  dataType: () => 'bigint',
  toDriver: (value) => value.getTime(),
  // node-postgres hands int8 over as a string.
  fromDriver: (value) => new Date(Number(value)),
});

/** Text compared byte by byte whatever the database's locale: materialised paths, whose subtree is a byte range. */
export const byteText = customType<{ data: string; driverData: string }>({
  dataType: () => 'text COLLATE "C"',
});

export const timestamps = {
  createdAt: epochMs()
    .notNull()
    .$defaultFn(() => new Date()),
  updatedAt: epochMs()
    .notNull()
    .$defaultFn(() => new Date())
    .$onUpdateFn(() => new Date()),
};
