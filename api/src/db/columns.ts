import { integer } from 'drizzle-orm/sqlite-core';

/** Timestamps stored as epoch milliseconds (portable to PostgreSQL as timestamptz via drizzle). */
export const timestamps = {
  createdAt: integer({ mode: 'timestamp_ms' })
    .notNull()
    .$defaultFn(() => new Date()),
  updatedAt: integer({ mode: 'timestamp_ms' })
    .notNull()
    .$defaultFn(() => new Date())
    .$onUpdateFn(() => new Date()),
};
