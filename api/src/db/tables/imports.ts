import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './users';

/** An uploaded spreadsheet between upload and execute; survives restarts and expires. */
export const importSessions = sqliteTable(
  'import_sessions',
  {
    id: text().primaryKey(),
    kind: text({ enum: ['users', 'departments', 'classes', 'organization_members'] }).notNull(),
    actorId: integer().references(() => users.id, { onDelete: 'cascade' }),
    fileName: text().notNull(),
    totalRows: integer().notNull().default(0),
    /** JSON: the level/organization of a member import; the validation summary. */
    params: text().notNull().default('{}'),
    validation: text(),
    status: text({ enum: ['uploaded', 'validated', 'running', 'completed', 'failed'] })
      .notNull()
      .default('uploaded'),
    processedRows: integer().notNull().default(0),
    result: text(),
    expiresAt: integer({ mode: 'timestamp_ms' }).notNull(),
    createdAt: integer({ mode: 'timestamp_ms' })
      .notNull()
      .$defaultFn(() => new Date()),
    updatedAt: integer({ mode: 'timestamp_ms' })
      .notNull()
      .$defaultFn(() => new Date())
      .$onUpdateFn(() => new Date()),
  },
  (t) => [index('import_sessions_expires_idx').on(t.expiresAt), index('import_sessions_actor_idx').on(t.actorId)],
);

/**
 * The file's parsed rows (JSON, megabytes for a large file), apart from the session: SQLite
 * rewrites a whole row on any UPDATE whose size changes, so status and progress updates on a
 * session that also held its rows took 250–300 ms of write lock each and stalled other writes.
 */
export const importSessionRows = sqliteTable('import_session_rows', {
  sessionId: text()
    .primaryKey()
    .references(() => importSessions.id, { onDelete: 'cascade' }),
  rows: text().notNull(),
});

/** Each user's last column mapping per kind of import, offered again on the next file (issue 15 part 5). */
export const importMappings = sqliteTable(
  'import_mappings',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text({ enum: ['users', 'departments', 'classes', 'organization_members'] }).notNull(),
    /** JSON: our column key → the file's header (null: not imported). */
    mapping: text().notNull(),
    updatedAt: integer({ mode: 'timestamp_ms' })
      .notNull()
      .$defaultFn(() => new Date())
      .$onUpdateFn(() => new Date()),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);
