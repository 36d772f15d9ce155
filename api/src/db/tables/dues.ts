import { integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps } from '../columns';
import { organizations } from './organizations';
import { users } from './users';

/**
 * Đoàn phí per month and member type (users.user_type), set on an organization and inherited by
 * every unit beneath it unless one of them sets its own (issue 30 item 4). With no row on the
 * path the built-in default of shared/src/schemas/dues.ts applies.
 */
export const duesRates = sqliteTable(
  'dues_rates',
  {
    organizationId: integer()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    memberType: text({ enum: ['student', 'staff'] }).notNull(),
    /** Integer VND per month. */
    monthlyAmount: integer().notNull(),
    updatedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.memberType] })],
);

/**
 * The share of what a unit handles that it keeps (the rest goes to the level above), per
 * organization type, as a fraction so 2/3 stays exact (issue 30 item 5). No row: 2/3.
 */
export const duesShares = sqliteTable('dues_shares', {
  organizationType: text().primaryKey(),
  keepNumerator: integer().notNull(),
  keepDenominator: integer().notNull(),
  updatedBy: integer().references(() => users.id, { onDelete: 'set null' }),
  ...timestamps,
});
