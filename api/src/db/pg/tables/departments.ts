/** PostgreSQL's departments tables: db/tables/departments.ts mapped by the rules in docs/decisions.md (issue 29). */
import { index, integer, pgTable, text, uniqueIndex, boolean } from 'drizzle-orm/pg-core';
import { timestamps } from '../columns';

export const departments = pgTable(
  'departments',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
    code: text(),
    description: text(),
    isActive: boolean().notNull().default(true),
    searchText: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [uniqueIndex('departments_code_uq').on(t.code), index('departments_active_idx').on(t.isActive, t.id)],
);
