import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from '../users/schema';

export const auditLogs = sqliteTable(
  'audit_logs',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    actorId: integer().references(() => users.id, { onDelete: 'set null' }),
    action: text().notNull(),
    entity: text().notNull(),
    entityId: text(),
    /** JSON snapshots with secrets masked. */
    before: text(),
    after: text(),
    ip: text(),
    /**
     * The organization the change concerns, when known: an organization's admin (audit.access)
     * reads the rows of its subtree. No foreign key: the row outlives a deleted organization.
     */
    organizationId: integer(),
    createdAt: integer({ mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
  },
  (t) => [
    index('audit_logs_entity_idx').on(t.entity, t.entityId),
    index('audit_logs_actor_idx').on(t.actorId),
    index('audit_logs_created_idx').on(t.createdAt),
    index('audit_logs_org_created_idx').on(t.organizationId, t.createdAt),
  ],
);
