import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import { timestamps } from '../columns';
import { organizations } from './organizations';
import { users } from './users';

/**
 * Transfer requests (chuyển sinh hoạt, issue 30 item 1). `requestedSide` says who asked: the
 * sending unit ('from', its admins or the member) or the receiving unit ('to', an admin whose
 * add-member was outside their reach); the other side decides. The membership moves only on
 * acceptance; until then the member stays where they were.
 */
export const transfers = sqliteTable(
  'transfers',
  {
    id: integer().primaryKey({ autoIncrement: true }),
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
    /** 'YYYY-MM-DD': the day the old membership ends and the new one starts. */
    effectiveDate: text().notNull(),
    status: text({ enum: ['PENDING', 'ACCEPTED', 'REFUSED', 'CANCELLED'] })
      .notNull()
      .default('PENDING'),
    requestedSide: text({ enum: ['from', 'to'] })
      .notNull()
      .default('from'),
    requestedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    decidedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    decidedAt: integer({ mode: 'timestamp_ms' }),
    refuseReason: text(),
    ...timestamps,
  },
  (t) => [
    // One pending request per member: a second one is a 409, and a race between two is settled by the key.
    uniqueIndex('transfers_pending_user_uq')
      .on(t.userId)
      .where(sql`status = 'PENDING'`),
    index('transfers_from_idx').on(t.fromOrganizationId, t.status, t.id),
    index('transfers_to_idx').on(t.toOrganizationId, t.status, t.id),
    index('transfers_status_idx').on(t.status, t.id),
    index('transfers_user_idx').on(t.userId, t.id),
  ],
);
