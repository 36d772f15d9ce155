/** PostgreSQL's coordination tables: db/tables/coordination.ts mapped by the rules in docs/decisions.md (issue 29). */
import { index, integer, pgTable, text, bigint } from 'drizzle-orm/pg-core';

export const leases = pgTable('leases', {
  name: text().primaryKey(),
  holder: text().notNull(),
  expiresAt: bigint({ mode: 'number' }).notNull(),
});

export const rateWindows = pgTable(
  'rate_windows',
  {
    key: text().primaryKey(),
    count: integer().notNull(),
    resetAt: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [index('rate_windows_reset_idx').on(t.resetAt)],
);

export const payosSandboxLinks = pgTable(
  'payos_sandbox_links',
  {
    id: text().primaryKey(),
    clientId: text().notNull(),
    orderCode: bigint({ mode: 'number' }).notNull(),
    checksumKeyEnc: text().notNull(),
    data: text().notNull(),
  },
  (t) => [index('payos_sandbox_links_order_idx').on(t.orderCode)],
);

export const sharedTotals = pgTable('shared_totals', {
  key: text().primaryKey(),
  stamp: text().notNull(),
  total: integer().notNull(),
  page: text(),
  storedAt: bigint({ mode: 'number' }).notNull(),
});
