/** PostgreSQL's payments tables: db/tables/payments.ts mapped by the rules in docs/decisions.md (issue 29). */
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, pgTable, text, uniqueIndex, bigint, boolean } from 'drizzle-orm/pg-core';
import { epochMs, timestamps } from '../columns';
import { users } from './users';
import { organizations } from './organizations';

export const paymentCampaigns = pgTable(
  'payment_campaigns',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    organizationId: integer()
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    name: text().notNull(),
    description: text(),
    startDate: epochMs().notNull(),
    endDate: epochMs().notNull(),
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

export const feeLevels = pgTable(
  'fee_levels',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    campaignId: integer()
      .notNull()
      .references(() => paymentCampaigns.id, { onDelete: 'cascade' }),
    levelName: text().notNull(),
    amount: bigint({ mode: 'number' }).notNull(),
    description: text(),
    note: text(),
    orderIndex: integer().notNull().default(0),
    isDefault: boolean().notNull().default(false),
    ...timestamps,
  },
  (t) => [index('fee_levels_campaign_idx').on(t.campaignId, t.orderIndex)],
);

export const paymentAssignments = pgTable(
  'payment_assignments',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    campaignId: integer()
      .notNull()
      .references(() => paymentCampaigns.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    feeLevelId: integer()
      .notNull()
      .references(() => feeLevels.id, { onDelete: 'restrict' }),
    status: text({ enum: ['PENDING', 'PAID', 'OVERDUE', 'EXEMPTED'] })
      .notNull()
      .default('PENDING'),
    amount: bigint({ mode: 'number' }).notNull().default(0),
    dueDate: epochMs(),
    notes: text(),
    assignedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    paidAt: epochMs(),
    paidAmount: bigint({ mode: 'number' }),
    paymentMethod: text({ enum: ['MANUAL', 'ONLINE'] }),
    isTestPayment: boolean().notNull().default(false),
    adjustment: text({ enum: ['EXEMPTED', 'REDUCED'] }),
    originalAmount: bigint({ mode: 'number' }),
    adjustmentReason: text(),
    adjustedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    adjustedAt: epochMs(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('payment_assignments_campaign_user_uq').on(t.campaignId, t.userId),
    index('payment_assignments_campaign_status_idx').on(t.campaignId, t.status),
    index('payment_assignments_user_idx').on(t.userId),
    index('payment_assignments_fee_level_idx').on(t.feeLevelId),
  ],
);

export const campaignFigures = pgTable(
  'campaign_figures',
  {
    campaignId: integer().notNull(),
    organizationId: integer().notNull(),
    assigned: integer().notNull().default(0),
    paid: integer().notNull().default(0),
    testPaid: integer().notNull().default(0),
    expected: bigint({ mode: 'number' }).notNull().default(0),
    collected: bigint({ mode: 'number' }).notNull().default(0),
    overdueCount: integer().notNull().default(0),
    overdueAmount: bigint({ mode: 'number' }).notNull().default(0),
    pendingCount: integer().notNull().default(0),
    pendingAmount: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.organizationId] }), index('campaign_figures_org_idx').on(t.organizationId, t.campaignId)],
);

export const campaignWeekFees = pgTable(
  'campaign_week_fees',
  {
    campaignId: integer().notNull(),
    week: integer().notNull(),
    assignmentId: integer().notNull(),
    orders: integer().notNull().default(0),
    collected: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.week, t.assignmentId] })],
);

export const campaignWeeks = pgTable(
  'campaign_weeks',
  {
    campaignId: integer().notNull(),
    week: integer().notNull(),
    payments: integer().notNull().default(0),
    collected: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.campaignId, t.week] })],
);

export const payosConfigs = pgTable(
  'payos_configs',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    campaignId: integer()
      .notNull()
      .references(() => paymentCampaigns.id, { onDelete: 'cascade' }),
    organizationId: integer()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: text().notNull(),
    apiKeyEnc: text().notNull(),
    checksumKeyEnc: text().notNull(),
    isActive: boolean().notNull().default(true),
    descriptionMaxLength: integer().notNull().default(9),
    webhookUrl: text(),
    webhookConfirmedAt: epochMs(),
    webhookMessage: text(),
    ...timestamps,
  },
  (t) => [uniqueIndex('payos_configs_campaign_uq').on(t.campaignId)],
);

export const paymentOrders = pgTable(
  'payment_orders',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    orderCode: bigint({ mode: 'number' }).notNull(),
    assignmentId: integer()
      .notNull()
      .references(() => paymentAssignments.id, { onDelete: 'cascade' }),
    campaignId: integer()
      .notNull()
      .references(() => paymentCampaigns.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amount: bigint({ mode: 'number' }).notNull(),
    description: text().notNull(),
    status: text({ enum: ['PENDING', 'PAID', 'CANCELLED', 'EXPIRED'] })
      .notNull()
      .default('PENDING'),
    paymentMethod: text({ enum: ['MANUAL', 'ONLINE'] })
      .notNull()
      .default('ONLINE'),
    manualMethod: text({ enum: ['cash', 'transfer'] }),
    note: text(),
    recordedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    paymentLinkId: text(),
    checkoutUrl: text(),
    /** Who is opening the link at payOS while checkoutUrl is empty: `host:pid` (orders.service.ts awaitOther). */
    openedBy: text(),
    paidAt: epochMs(),
    cancelledAt: epochMs(),
    isTest: boolean().notNull().default(false),
    receivedAmount: bigint({ mode: 'number' }).notNull().default(0),
    attention: text({ enum: ['REFUND_DUE', 'BALANCE_DUE'] }),
    attentionReason: text({ enum: ['DUPLICATE', 'AFTER_CLOSE', 'OVERPAID', 'UNDERPAID', 'AFTER_EXEMPTION'] }),
    attentionAmount: bigint({ mode: 'number' }),
    resolution: text({ enum: ['REFUNDED', 'ACCEPTED', 'SETTLED'] }),
    resolvedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: epochMs(),
    resolutionNote: text(),
    reversedAt: epochMs(),
    reversedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    reversalReason: text(),
    reversesOrderId: integer(),
    payosChecksumKeyEnc: text(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('payment_orders_order_code_uq').on(t.orderCode),
    uniqueIndex('payment_orders_one_open_uq')
      .on(t.assignmentId)
      .where(sql`status = 'PENDING'`),
    index('payment_orders_attention_idx').on(t.campaignId, t.attention),
    index('payment_orders_campaign_status_idx').on(t.campaignId, t.status),
    index('payment_orders_user_idx').on(t.userId),
    index('payment_orders_assignment_idx').on(t.assignmentId),
    uniqueIndex('payment_orders_reverses_uq')
      .on(t.reversesOrderId)
      .where(sql`reverses_order_id is not null`),
  ],
);

export const paymentTransactions = pgTable(
  'payment_transactions',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    orderId: integer()
      .notNull()
      .references(() => paymentOrders.id, { onDelete: 'cascade' }),
    reference: text().notNull(),
    amount: bigint({ mode: 'number' }).notNull(),
    accountNumber: text(),
    description: text(),
    transactionDateTime: text(),
    counterAccountName: text(),
    createdAt: epochMs()
      .notNull()
      .$defaultFn(() => new Date()),
  },
  (t) => [uniqueIndex('payment_transactions_reference_uq').on(t.reference), index('payment_transactions_order_idx').on(t.orderId)],
);
