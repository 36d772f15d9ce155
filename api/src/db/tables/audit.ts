import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './users';

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
    /**
     * JSON names captured when the row is written (audit/labels.ts): the actor, the record, the
     * organization, campaign and user it concerns, and the ids inside the snapshots, so the log
     * still speaks of "Chi đoàn 22CNTT1" after that record is renamed or deleted.
     */
    labels: text(),
    createdAt: integer({ mode: 'timestamp_ms' })
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [
    index('audit_logs_entity_idx').on(t.entity, t.entityId),
    index('audit_logs_actor_idx').on(t.actorId),
    index('audit_logs_created_idx').on(t.createdAt),
    index('audit_logs_org_created_idx').on(t.organizationId, t.createdAt),
  ],
);

/**
 * The further organizations a row concerns when one column cannot say it: a change to a user who
 * belongs to several organizations, a role grant in an organization (audit/organization.ts,
 * userAuditOrganizations). An audit.access holder reads the row when one of them lies in its subtree.
 */
export const auditLogOrganizations = sqliteTable(
  'audit_log_organizations',
  {
    auditLogId: integer()
      .notNull()
      .references(() => auditLogs.id, { onDelete: 'cascade' }),
    /** No foreign key, as audit_logs.organizationId: the row outlives a deleted organization. */
    organizationId: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.auditLogId, t.organizationId] }),
    index('audit_log_organizations_org_idx').on(t.organizationId, t.auditLogId),
  ],
);
