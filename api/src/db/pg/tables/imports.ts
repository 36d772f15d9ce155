/** PostgreSQL's imports tables: db/tables/imports.ts mapped by the rules in docs/decisions.md (issue 29). */
import { index, integer, primaryKey, pgTable, text } from 'drizzle-orm/pg-core';
import { epochMs } from '../columns';
import { users } from './users';

export const importSessions = pgTable(
  'import_sessions',
  {
    id: text().primaryKey(),
    kind: text({ enum: ['users', 'departments', 'classes', 'organization_members'] }).notNull(),
    actorId: integer().references(() => users.id, { onDelete: 'cascade' }),
    fileName: text().notNull(),
    totalRows: integer().notNull().default(0),
    params: text().notNull().default('{}'),
    validation: text(),
    status: text({ enum: ['uploaded', 'validated', 'running', 'completed', 'failed'] })
      .notNull()
      .default('uploaded'),
    processedRows: integer().notNull().default(0),
    result: text(),
    expiresAt: epochMs().notNull(),
    createdAt: epochMs()
      .notNull()
      .$defaultFn(() => new Date()),
    updatedAt: epochMs()
      .notNull()
      .$defaultFn(() => new Date())
      .$onUpdateFn(() => new Date()),
  },
  (t) => [index('import_sessions_expires_idx').on(t.expiresAt), index('import_sessions_actor_idx').on(t.actorId)],
);

export const importSessionRows = pgTable('import_session_rows', {
  sessionId: text()
    .primaryKey()
    .references(() => importSessions.id, { onDelete: 'cascade' }),
  rows: text().notNull(),
});

export const importMappings = pgTable(
  'import_mappings',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text({ enum: ['users', 'departments', 'classes', 'organization_members'] }).notNull(),
    mapping: text().notNull(),
    updatedAt: epochMs()
      .notNull()
      .$defaultFn(() => new Date())
      .$onUpdateFn(() => new Date()),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);
