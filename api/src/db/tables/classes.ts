import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from '../columns';
import { departments } from './departments';

/** A class's students are the users whose classId points at it. */
export const classes = sqliteTable(
  'classes',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    name: text().notNull(),
    code: text(),
    year: integer().notNull(),
    departmentId: integer().references(() => departments.id, { onDelete: 'set null' }),
    isActive: integer({ mode: 'boolean' }).notNull().default(true),
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
