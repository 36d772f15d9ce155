/** PostgreSQL's classes tables: db/tables/classes.ts mapped by the rules in docs/decisions.md (issue 29). */
import { index, integer, pgTable, text, uniqueIndex, boolean } from 'drizzle-orm/pg-core';
import { timestamps } from '../columns';
import { departments } from './departments';

export const classes = pgTable(
  'classes',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
    code: text(),
    year: integer().notNull(),
    departmentId: integer().references(() => departments.id, { onDelete: 'set null' }),
    isActive: boolean().notNull().default(true),
    searchText: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('classes_code_uq').on(t.code),
    index('classes_department_idx').on(t.departmentId),
    index('classes_year_idx').on(t.year),
    index('classes_active_idx').on(t.isActive, t.id),
  ],
);
