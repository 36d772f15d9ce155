/** PostgreSQL's transfers tables: db/tables/transfers.ts mapped by the rules in docs/decisions.md (issue 29). */
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { epochMs, timestamps } from '../columns';
import { sql } from 'drizzle-orm';
import { organizations } from './organizations';
import { users } from './users';

export const transfers = pgTable(
  'transfers',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fromOrganizationId: integer()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    toOrganizationId: integer()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    reason: text().notNull(),
    effectiveDate: text().notNull(),
    status: text({ enum: ['PENDING', 'ACCEPTED', 'REFUSED', 'CANCELLED'] })
      .notNull()
      .default('PENDING'),
    requestedSide: text({ enum: ['from', 'to'] })
      .notNull()
      .default('from'),
    requestedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    decidedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    decidedAt: epochMs(),
    refuseReason: text(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('transfers_pending_user_uq')
      .on(t.userId)
      .where(sql`status = 'PENDING'`),
    index('transfers_from_idx').on(t.fromOrganizationId, t.status, t.id),
    index('transfers_to_idx').on(t.toOrganizationId, t.status, t.id),
    index('transfers_status_idx').on(t.status, t.id),
    index('transfers_user_idx').on(t.userId, t.id),
  ],
);
