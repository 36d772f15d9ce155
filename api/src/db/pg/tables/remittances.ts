/** PostgreSQL's remittances tables: db/tables/remittances.ts mapped by the rules in docs/decisions.md (issue 29). */
import { index, integer, pgTable, text, bigint } from 'drizzle-orm/pg-core';
import { epochMs, timestamps } from '../columns';
import { organizations } from './organizations';
import { paymentCampaigns } from './payments';
import { users } from './users';

export const remittances = pgTable(
  'remittances',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    campaignId: integer()
      .notNull()
      .references(() => paymentCampaigns.id, { onDelete: 'cascade' }),
    fromOrganizationId: integer()
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    toOrganizationId: integer()
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    amount: bigint({ mode: 'number' }).notNull(),
    paidAt: epochMs().notNull(),
    note: text(),
    status: text({ enum: ['PENDING', 'CONFIRMED', 'CANCELLED'] })
      .notNull()
      .default('PENDING'),
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    confirmedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    confirmedAt: epochMs(),
    cancelledBy: integer().references(() => users.id, { onDelete: 'set null' }),
    cancelledAt: epochMs(),
    ...timestamps,
  },
  (t) => [
    index('remittances_campaign_from_idx').on(t.campaignId, t.fromOrganizationId, t.status),
    index('remittances_campaign_to_idx').on(t.campaignId, t.toOrganizationId, t.status),
    index('remittances_to_status_idx').on(t.toOrganizationId, t.status),
  ],
);
