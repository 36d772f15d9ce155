import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from '../columns';

export const departments = sqliteTable(
  'departments',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    name: text().notNull(),
    code: text(),
    description: text(),
    isActive: integer({ mode: 'boolean' }).notNull().default(true),
    /** Accent-stripped lower-case name and code, for diacritics-insensitive search. */
    searchText: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [uniqueIndex('departments_code_uq').on(t.code), index('departments_active_idx').on(t.isActive, t.id)],
);
