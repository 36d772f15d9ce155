/**
 * State the API processes of one deployment share (issue 28 item 2): several processes serve one
 * database file, so what one of them counts or holds must be seen by the others.
 */
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * One row per periodic job (or running import): whoever holds an unexpired row runs it. Taken and
 * renewed with a conditional upsert (lib/lease.ts); another process takes it over once it expires.
 */
export const leases = sqliteTable('leases', {
  name: text().primaryKey(),
  holder: text().notNull(),
  /** Epoch ms after which any process may take the lease. */
  expiresAt: integer().notNull(),
});

/** Fixed-window throttle counters (lib/fixed-window.ts), keyed `<scope>:<key>`; a row past reset_at counts as empty. */
export const rateWindows = sqliteTable(
  'rate_windows',
  {
    key: text().primaryKey(),
    count: integer().notNull(),
    /** Epoch ms when the window ends. */
    resetAt: integer().notNull(),
  },
  (t) => [index('rate_windows_reset_idx').on(t.resetAt)],
);

/**
 * The payOS sandbox's payment links (payos-sandbox/state.ts): a link made through one process is
 * paid or cancelled through another. `data` is the link as JSON without its checksum key, which is
 * kept encrypted under the app secret as payOS configs keep theirs.
 */
export const payosSandboxLinks = sqliteTable(
  'payos_sandbox_links',
  {
    id: text().primaryKey(),
    clientId: text().notNull(),
    orderCode: integer().notNull(),
    checksumKeyEnc: text().notNull(),
    data: text().notNull(),
  },
  (t) => [index('payos_sandbox_links_order_idx').on(t.orderCode)],
);

/**
 * Costly list totals (a search's count over a university or everyone, users/list.ts) shared by the
 * processes of a deployment (lib/shared-totals.ts): each row is a total with the table versions it
 * was counted under (lib/freshness.ts stamps), served only while they are still current. `key` hashes
 * the filter with the tables it follows; `page` is the page of ids counted with it (JSON), if any.
 * Read on PostgreSQL only; SQLite's counts cost less than the statement would.
 */
export const sharedTotals = sqliteTable('shared_totals', {
  key: text().primaryKey(),
  stamp: text().notNull(),
  total: integer().notNull(),
  page: text(),
  /** Epoch ms when it was stored: rows not stored again for a while are dropped. */
  storedAt: integer().notNull(),
});
