import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from '../columns';
import { users } from './users';
import { organizations } from './organizations';

export const paymentCampaigns = sqliteTable(
  'payment_campaigns',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    organizationId: integer()
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    name: text().notNull(),
    description: text(),
    /** Instants (UTC ms); the form's zone-less local times are read as Asia/Ho_Chi_Minh. */
    startDate: integer({ mode: 'timestamp_ms' }).notNull(),
    endDate: integer({ mode: 'timestamp_ms' }).notNull(),
    status: text({ enum: ['DRAFT', 'ACTIVE', 'COMPLETED', 'CANCELLED'] })
      .notNull()
      .default('DRAFT'),
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    searchText: text().notNull().default(''),
    ...timestamps,
  },
  (t) => [
    index('payment_campaigns_org_idx').on(t.organizationId, t.id),
    index('payment_campaigns_status_idx').on(t.status, t.id),
    index('payment_campaigns_dates_idx').on(t.startDate, t.endDate),
  ],
);

export const feeLevels = sqliteTable(
  'fee_levels',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    campaignId: integer()
      .notNull()
      .references(() => paymentCampaigns.id, { onDelete: 'cascade' }),
    levelName: text().notNull(),
    /** Integer VND. */
    amount: integer().notNull(),
    description: text(),
    note: text(),
    orderIndex: integer().notNull().default(0),
    isDefault: integer({ mode: 'boolean' }).notNull().default(false),
    ...timestamps,
  },
  (t) => [index('fee_levels_campaign_idx').on(t.campaignId, t.orderIndex)],
);

export const paymentAssignments = sqliteTable(
  'payment_assignments',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    campaignId: integer()
      .notNull()
      .references(() => paymentCampaigns.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    feeLevelId: integer()
      .notNull()
      .references(() => feeLevels.id, { onDelete: 'restrict' }),
    /** EXEMPTED: the fee was waived entirely (amount 0, the fee before it in originalAmount). */
    status: text({ enum: ['PENDING', 'PAID', 'OVERDUE', 'EXEMPTED'] })
      .notNull()
      .default('PENDING'),
    /** Integer VND owed: the fee level's amount, following it while nothing has been received (docs/decisions.md). */
    amount: integer().notNull().default(0),
    dueDate: integer({ mode: 'timestamp_ms' }),
    notes: text(),
    assignedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    paidAt: integer({ mode: 'timestamp_ms' }),
    /** Money counted towards the fee: received, less refund-due excess not accepted (money.ts). */
    paidAmount: integer(),
    paymentMethod: text({ enum: ['MANUAL', 'ONLINE'] }),
    /** PAID only thanks to sandbox (test) money. */
    isTestPayment: integer({ mode: 'boolean' }).notNull().default(false),
    /**
     * Exemption (miễn) or reduction (giảm): `amount` becomes 0 or the reduced fee, so every total built
     * on Σ amount stays right; the fee before it is kept here until the adjustment is undone.
     */
    adjustment: text({ enum: ['EXEMPTED', 'REDUCED'] }),
    originalAmount: integer(),
    adjustmentReason: text(),
    adjustedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    adjustedAt: integer({ mode: 'timestamp_ms' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('payment_assignments_campaign_user_uq').on(t.campaignId, t.userId),
    index('payment_assignments_campaign_status_idx').on(t.campaignId, t.status),
    index('payment_assignments_user_idx').on(t.userId),
    index('payment_assignments_fee_level_idx').on(t.feeLevelId),
  ],
);

/**
 * The dashboard's collection figures per campaign and organization subtree (organization 0 = the
 * whole campaign), kept by triggers (migration 0019) as member_figures is: a fee counts in every
 * organization where its member is active, once however many memberships lie beneath it.
 * Overdue is split so the read can add what is still PENDING once the campaign has ended.
 */
export const campaignFigures = sqliteTable(
  'campaign_figures',
  {
    campaignId: integer().notNull(),
    organizationId: integer().notNull(),
    assigned: integer().notNull().default(0),
    /** Status PAID by real money; a fee settled by sandbox money counts in testPaid instead (issue 26 item 9). */
    paid: integer().notNull().default(0),
    testPaid: integer().notNull().default(0),
    expected: integer().notNull().default(0),
    collected: integer().notNull().default(0),
    /** Status OVERDUE: how many, and what they still owe. */
    overdueCount: integer().notNull().default(0),
    overdueAmount: integer().notNull().default(0),
    /** Status PENDING: overdue too once the campaign's end has passed. */
    pendingCount: integer().notNull().default(0),
    pendingAmount: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.organizationId] }), index('campaign_figures_org_idx').on(t.organizationId, t.campaignId)],
);

/**
 * The weekly collection chart (dashboard/service.ts weekly), kept by triggers (migration 0021):
 * per campaign, week (dashboard/weeks.ts index) and fee, the counted orders paid that week and
 * their money; campaign_weeks sums them per week, so the chart reads a few rows, not every order.
 */
export const campaignWeekFees = sqliteTable(
  'campaign_week_fees',
  {
    campaignId: integer().notNull(),
    week: integer().notNull(),
    assignmentId: integer().notNull(),
    orders: integer().notNull().default(0),
    collected: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.week, t.assignmentId] })],
);

export const campaignWeeks = sqliteTable(
  'campaign_weeks',
  {
    campaignId: integer().notNull(),
    week: integer().notNull(),
    /** Distinct fees with money counted this week. */
    payments: integer().notNull().default(0),
    collected: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.week] })],
);

export const payosConfigs = sqliteTable(
  'payos_configs',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    campaignId: integer()
      .notNull()
      .references(() => paymentCampaigns.id, { onDelete: 'cascade' }),
    organizationId: integer()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: text().notNull(),
    /** AES-256-GCM ciphertexts (iv:tag:data, base64) under the app secret. */
    apiKeyEnc: text().notNull(),
    checksumKeyEnc: text().notNull(),
    isActive: integer({ mode: 'boolean' }).notNull().default(true),
    /** payOS transfer note limit: 9 for bank accounts not linked through payOS, up to 25 when linked. */
    descriptionMaxLength: integer().notNull().default(9),
    /** The last confirm-webhook call: the URL sent, when payOS accepted it, and its answer. */
    webhookUrl: text(),
    webhookConfirmedAt: integer({ mode: 'timestamp_ms' }),
    webhookMessage: text(),
    ...timestamps,
  },
  (t) => [uniqueIndex('payos_configs_campaign_uq').on(t.campaignId)],
);

export const paymentOrders = sqliteTable(
  'payment_orders',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    orderCode: integer().notNull(),
    assignmentId: integer()
      .notNull()
      .references(() => paymentAssignments.id, { onDelete: 'cascade' }),
    campaignId: integer()
      .notNull()
      .references(() => paymentCampaigns.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amount: integer().notNull(),
    description: text().notNull(),
    status: text({ enum: ['PENDING', 'PAID', 'CANCELLED', 'EXPIRED'] })
      .notNull()
      .default('PENDING'),
    paymentMethod: text({ enum: ['MANUAL', 'ONLINE'] })
      .notNull()
      .default('ONLINE'),
    /** MANUAL payments: cash or transfer, and who recorded them. */
    manualMethod: text({ enum: ['cash', 'transfer'] }),
    note: text(),
    recordedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    paymentLinkId: text(),
    checkoutUrl: text(),
    /** Who is opening the link at payOS while checkoutUrl is empty: `host:pid` (orders.service.ts awaitOther). */
    openedBy: text(),
    paidAt: integer({ mode: 'timestamp_ms' }),
    cancelledAt: integer({ mode: 'timestamp_ms' }),
    /** Made through the embedded payOS sandbox: no real money moved. */
    isTest: integer({ mode: 'boolean' }).notNull().default(false),
    /** Money that actually arrived on this order (sum of its bank transactions; the amount for MANUAL). */
    receivedAmount: integer().notNull().default(0),
    /** Money that did not fit the fee: the treasurer must refund it or collect the rest (money.ts). */
    attention: text({ enum: ['REFUND_DUE', 'BALANCE_DUE'] }),
    attentionReason: text({ enum: ['DUPLICATE', 'AFTER_CLOSE', 'OVERPAID', 'UNDERPAID', 'AFTER_EXEMPTION'] }),
    attentionAmount: integer(),
    resolution: text({ enum: ['REFUNDED', 'ACCEPTED', 'SETTLED'] }),
    resolvedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: integer({ mode: 'timestamp_ms' }),
    resolutionNote: text(),
    /**
     * A reversed mark-paid (issue 15.3): the record stays, counts nothing, and a reversing entry
     * (an order with reversesOrderId = this id and the negative amount) is added beside it.
     */
    reversedAt: integer({ mode: 'timestamp_ms' }),
    reversedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    reversalReason: text(),
    reversesOrderId: integer(),
    /**
     * The checksum key this order's link was created under (AES-GCM under the app secret, as in
     * payos_configs): its webhook is verified with it whatever happened to the configuration since.
     */
    payosChecksumKeyEnc: text(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('payment_orders_order_code_uq').on(t.orderCode),
    // At most one payable link per assignment, whatever the concurrency (issue 11.1).
    uniqueIndex('payment_orders_one_open_uq')
      .on(t.assignmentId)
      .where(sql`status = 'PENDING'`),
    index('payment_orders_attention_idx').on(t.campaignId, t.attention),
    index('payment_orders_campaign_status_idx').on(t.campaignId, t.status),
    index('payment_orders_user_idx').on(t.userId),
    index('payment_orders_assignment_idx').on(t.assignmentId),
    // One reversing entry per order, whatever the concurrency.
    uniqueIndex('payment_orders_reverses_uq')
      .on(t.reversesOrderId)
      .where(sql`reverses_order_id is not null`),
  ],
);

export const paymentTransactions = sqliteTable(
  'payment_transactions',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    orderId: integer()
      .notNull()
      .references(() => paymentOrders.id, { onDelete: 'cascade' }),
    reference: text().notNull(),
    amount: integer().notNull(),
    accountNumber: text(),
    description: text(),
    transactionDateTime: text(),
    counterAccountName: text(),
    createdAt: integer({ mode: 'timestamp_ms' })
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [uniqueIndex('payment_transactions_reference_uq').on(t.reference), index('payment_transactions_order_idx').on(t.orderId)],
);
