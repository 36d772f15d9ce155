/** PostgreSQL's audit tables: db/tables/audit.ts mapped by the rules in docs/decisions.md (issue 29). */
import { bigint, index, integer, primaryKey, pgTable, text } from 'drizzle-orm/pg-core';
import { epochMs } from '../columns';
import { users } from './users';

export const auditLogs = pgTable(
  'audit_logs',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    actorId: integer().references(() => users.id, { onDelete: 'set null' }),
    action: text().notNull(),
    entity: text().notNull(),
    entityId: text(),
    before: text(),
    after: text(),
    ip: text(),
    organizationId: integer(),
    labels: text(),
    createdAt: epochMs()
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

export const auditLogOrganizations = pgTable(
  'audit_log_organizations',
  {
    auditLogId: bigint({ mode: 'number' })
      .notNull()
      .references(() => auditLogs.id, { onDelete: 'cascade' }),
    organizationId: integer().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.auditLogId, t.organizationId] }),
    index('audit_log_organizations_org_idx').on(t.organizationId, t.auditLogId),
  ],
);
