import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps } from '../columns';
import { organizations } from './organizations';
import { paymentCampaigns } from './payments';
import { users } from './users';

/**
 * Money a unit passed up to the level above for a campaign (trích nộp, issue 30 item 5). It counts
 * as paid once the receiving level confirms it; until then the unit still owes it.
 */
export const remittances = sqliteTable(
  'remittances',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    campaignId: integer()
      .notNull()
      .references(() => paymentCampaigns.id, { onDelete: 'cascade' }),
    fromOrganizationId: integer()
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    /** The parent when it was recorded: the level that confirms it. */
    toOrganizationId: integer()
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    /** Integer VND. */
    amount: integer().notNull(),
    paidAt: integer({ mode: 'timestamp_ms' }).notNull(),
    note: text(),
    status: text({ enum: ['PENDING', 'CONFIRMED', 'CANCELLED'] })
      .notNull()
      .default('PENDING'),
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    confirmedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    confirmedAt: integer({ mode: 'timestamp_ms' }),
    cancelledBy: integer().references(() => users.id, { onDelete: 'set null' }),
    cancelledAt: integer({ mode: 'timestamp_ms' }),
    ...timestamps,
  },
  (t) => [
    index('remittances_campaign_from_idx').on(t.campaignId, t.fromOrganizationId, t.status),
    index('remittances_campaign_to_idx').on(t.campaignId, t.toOrganizationId, t.status),
    index('remittances_to_status_idx').on(t.toOrganizationId, t.status),
  ],
);
