/** PostgreSQL's dues tables: db/tables/dues.ts mapped by the rules in docs/decisions.md (issue 29). */
import { integer, primaryKey, pgTable, text, bigint } from 'drizzle-orm/pg-core';
import { timestamps } from '../columns';
import { organizations } from './organizations';
import { users } from './users';

export const duesRates = pgTable(
  'dues_rates',
  {
    organizationId: integer()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    memberType: text({ enum: ['student', 'staff'] }).notNull(),
    monthlyAmount: bigint({ mode: 'number' }).notNull(),
    updatedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.memberType] })],
);

export const duesShares = pgTable('dues_shares', {
  organizationType: text().primaryKey(),
  keepNumerator: integer().notNull(),
  keepDenominator: integer().notNull(),
  updatedBy: integer().references(() => users.id, { onDelete: 'set null' }),
  ...timestamps,
});
