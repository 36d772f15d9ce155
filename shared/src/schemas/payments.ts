/** Request and response schemas of the payments API (001 §3–§7). Messages are `validation.*` keys. */
import { z } from 'zod';
import { booleanQuery } from './common';
import { ASSIGNMENT_STATUSES, CAMPAIGN_STATUSES, ORDER_STATUSES, PAYMENT_METHODS } from './enums';

const invalid = 'validation.invalidValue';

/** Vietnam has one offset all year (UTC+7, no DST), so a fixed offset converts exactly. */
export const VN_OFFSET_MS = 7 * 3600_000;

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;
const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/**
 * The campaign form sends local date-times without a zone ('2026-12-01T00:00:00'): read them as
 * Asia/Ho_Chi_Minh. A value with an explicit zone is taken as that instant. A bare date is the
 * start of that day, or its last millisecond with `endOfDay`. Null when malformed or not a real date.
 */
export function parseVnDateTime(value: string, opts: { endOfDay?: boolean } = {}): Date | null {
  const s = value.trim();
  if (ZONED.test(s)) {
    const d = new Date(s);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  const m = LOCAL.exec(s);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const dateOnly = m[4] === undefined;
  const [h, mi, sec, ms] = dateOnly && opts.endOfDay ? [23, 59, 59, 999] : [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0), Number((m[7] ?? '0').padEnd(3, '0'))];
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || sec > 59) return null;
  const utc = Date.UTC(y, mo - 1, d, h, mi, sec, ms);
  // Date.UTC rolls 31 February over into March: refuse dates that do not exist.
  if (new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d) return null;
  return new Date(utc - VN_OFFSET_MS);
}

/** A date-time field: a string that parseVnDateTime accepts (kept as the string; the API converts). */
function vnDateTime(required: string, endOfDay = false) {
  return z
    .string({ error: required })
    .trim()
    .min(1, { error: required, abort: true })
    .refine((v) => parseVnDateTime(v, { endOfDay }) !== null, 'validation.dateTimeInvalid');
}

const optionalText = (max: number) =>
  z
    .string({ error: invalid })
    .trim()
    .max(max, 'validation.textTooLong')
    .nullish()
    .transform((v) => (v === undefined ? undefined : v === null || v === '' ? null : v));

const id = (message = invalid) => z.number({ error: message }).int(message).positive(message);
const queryId = z.coerce.number({ error: invalid }).int(invalid).positive(invalid);
const page = z.coerce.number({ error: invalid }).int(invalid).min(1, invalid).default(1);
const limit = (max = 100) => z.coerce.number({ error: invalid }).int(invalid).min(1, invalid).max(max, invalid).default(10);
const search = z.string().trim().max(200, 'validation.textTooLong').optional();

export const campaignStatusSchema = z.enum(CAMPAIGN_STATUSES, { error: invalid });
export const assignmentStatusSchema = z.enum(ASSIGNMENT_STATUSES, { error: invalid });
export const orderStatusSchema = z.enum(ORDER_STATUSES, { error: invalid });
export const paymentMethodSchema = z.enum(PAYMENT_METHODS);

// ---- Campaigns ----

export const campaignListQuery = z.object({
  page,
  limit: limit(),
  search,
  organizationId: queryId.optional(),
  status: campaignStatusSchema.optional(),
  /** Campaigns still running on or after this date (a bare date is its first moment). */
  startDate: vnDateTime(invalid).optional(),
  /** Campaigns starting on or before this date (a bare date is its last moment). */
  endDate: vnDateTime(invalid, true).optional(),
});
export type CampaignListQuery = z.infer<typeof campaignListQuery>;

const endAfterStart = (v: { startDate?: string; endDate?: string }) => {
  if (!v.startDate || !v.endDate) return true;
  const s = parseVnDateTime(v.startDate);
  const e = parseVnDateTime(v.endDate);
  return !s || !e || e.getTime() > s.getTime();
};

export const createCampaignSchema = z
  .object({
    organizationId: id('validation.organizationRequired'),
    name: z.string({ error: 'validation.nameRequired' }).trim().min(1, 'validation.nameRequired').max(200, 'validation.textTooLong'),
    description: optionalText(2000),
    startDate: vnDateTime('validation.startDateRequired'),
    endDate: vnDateTime('validation.endDateRequired'),
  })
  .refine(endAfterStart, { message: 'validation.dateRange', path: ['endDate'] });
export type CreateCampaign = z.output<typeof createCampaignSchema>;

/** The organization cannot change on edit: it is accepted only when it names the current one. */
export const updateCampaignSchema = z
  .object({
    organizationId: id().optional(),
    name: z.string({ error: 'validation.nameRequired' }).trim().min(1, 'validation.nameRequired').max(200, 'validation.textTooLong').optional(),
    description: optionalText(2000),
    startDate: vnDateTime('validation.startDateRequired').optional(),
    endDate: vnDateTime('validation.endDateRequired').optional(),
  })
  .refine(endAfterStart, { message: 'validation.dateRange', path: ['endDate'] });
export type UpdateCampaign = z.output<typeof updateCampaignSchema>;

export const campaignOrganizationSchema = z.object({ id: z.number(), name: z.string(), code: z.string(), type: z.string() });
export const campaignUserSchema = z.object({ id: z.number(), familyName: z.string(), givenName: z.string(), email: z.string(), code: z.string() });

export const feeLevelSchema = z.object({
  id: z.number(),
  campaignId: z.number(),
  levelName: z.string(),
  amount: z.number(),
  description: z.string().nullable(),
  note: z.string().nullable(),
  orderIndex: z.number(),
  isDefault: z.boolean(),
  assignmentCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FeeLevel = z.infer<typeof feeLevelSchema>;

export const campaignSchema = z.object({
  id: z.number(),
  organizationId: z.number(),
  organization: campaignOrganizationSchema.nullable(),
  name: z.string(),
  description: z.string().nullable(),
  startDate: z.string(),
  endDate: z.string(),
  status: campaignStatusSchema,
  createdBy: z.number().nullable(),
  createdByUser: campaignUserSchema.nullable(),
  feeLevelCount: z.number(),
  assignmentCount: z.number(),
  /** Only on GET /payment-campaigns/{id} (ordered by orderIndex). */
  feeLevels: z.array(feeLevelSchema).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Campaign = z.infer<typeof campaignSchema>;

export const campaignListResponse = z.object({
  campaigns: z.array(campaignSchema),
  page: z.number(),
  limit: z.number(),
  total: z.number(),
  totalPages: z.number(),
});
export type CampaignListResponse = z.infer<typeof campaignListResponse>;

export const campaignStatisticsSchema = z.object({
  campaignId: z.number(),
  totalMembers: z.number(),
  pendingCount: z.number(),
  paidCount: z.number(),
  /** OVERDUE rows plus PENDING ones whose campaign has ended (shown as overdue, 001 §4). */
  overdueCount: z.number(),
  totalExpected: z.number(),
  collected: z.number(),
  uncollected: z.number(),
  collectionPercentage: z.number(),
  endDate: z.string(),
  byFeeLevel: z.array(z.object({ feeLevelId: z.number(), levelName: z.string(), amount: z.number(), count: z.number(), paidCount: z.number() })),
});
export type CampaignStatistics = z.infer<typeof campaignStatisticsSchema>;

// ---- Fee levels ----

const amount = z
  .number({ error: 'validation.amountGreaterThanZero' })
  .int('validation.amountInteger')
  .positive('validation.amountGreaterThanZero')
  .max(1_000_000_000, 'validation.amountTooLarge');
const levelName = z.string({ error: 'validation.nameRequired' }).trim().min(1, 'validation.nameRequired').max(200, 'validation.textTooLong');
const orderIndex = z.number({ error: invalid }).int(invalid).min(0, invalid);

export const createFeeLevelSchema = z.object({
  campaignId: id('validation.campaignRequired'),
  levelName,
  amount,
  description: optionalText(1000),
  note: optionalText(1000),
  /** Defaults to the number of levels the campaign already has (001 §3). */
  orderIndex: orderIndex.optional(),
});
export type CreateFeeLevel = z.output<typeof createFeeLevelSchema>;

export const updateFeeLevelSchema = z.object({
  levelName: levelName.optional(),
  amount: amount.optional(),
  description: optionalText(1000),
  note: optionalText(1000),
  orderIndex: orderIndex.optional(),
});
export type UpdateFeeLevel = z.output<typeof updateFeeLevelSchema>;

// ---- Assignments ----

export const ASSIGNMENT_SORT_FIELDS = ['createdAt', 'dueDate', 'status', 'amount', 'paidAt', 'memberName', 'memberCode', 'feeLevel'] as const;

export const assignmentListQuery = z.object({
  campaignId: queryId.optional(),
  userId: queryId.optional(),
  organizationId: queryId.optional(),
  status: assignmentStatusSchema.optional(),
  feeLevelId: queryId.optional(),
  page,
  limit: limit(),
  /** Member name, code or email, or fee level name (accents ignored). */
  search,
  sortBy: z.enum(ASSIGNMENT_SORT_FIELDS, { error: invalid }).default('createdAt'),
  sortOrder: z.enum(['asc', 'desc'], { error: invalid }).default('desc'),
});
export type AssignmentListQuery = z.infer<typeof assignmentListQuery>;

export const myAssignmentsQuery = z.object({
  page,
  limit: limit(),
  status: assignmentStatusSchema.optional(),
  campaignId: queryId.optional(),
});
export type MyAssignmentsQuery = z.infer<typeof myAssignmentsQuery>;

export const assignmentStatisticsQuery = z.object({ campaignId: queryId });

const assignmentFields = {
  campaignId: id('validation.campaignRequired'),
  userId: id('validation.selectMembers'),
  feeLevelId: id('validation.selectFeeLevel'),
  notes: optionalText(1000),
  /** Defaults to the campaign's end; a bare date is the end of that day. */
  dueDate: vnDateTime('validation.invalidDueDate', true).nullish(),
};

export const createAssignmentSchema = z.object(assignmentFields);
export type CreateAssignment = z.output<typeof createAssignmentSchema>;

export const bulkAssignmentSchema = z.object({
  assignments: z.array(z.object(assignmentFields), { error: 'validation.selectMembers' }).min(1, 'validation.selectMembers').max(2000, 'validation.tooManyItems'),
  /** Sent by the admin client (the creating user); the API takes the caller from the token instead. */
  userId: z.unknown().optional(),
});
export type BulkAssignment = z.output<typeof bulkAssignmentSchema>;

export const updateAssignmentSchema = z.object({
  feeLevelId: id('validation.selectFeeLevel').optional(),
  notes: optionalText(1000),
  dueDate: vnDateTime('validation.invalidDueDate', true).nullish(),
});
export type UpdateAssignment = z.output<typeof updateAssignmentSchema>;

export const MANUAL_METHODS = ['cash', 'transfer'] as const;
export const markPaidSchema = z.object({
  method: z.enum(MANUAL_METHODS, { error: 'validation.paymentMethodInvalid' }).default('cash'),
  note: optionalText(1000),
});
export type MarkPaid = z.output<typeof markPaidSchema>;

export const checkOverdueQuery = z.object({ campaignId: queryId.optional() });

export const assignmentSchema = z.object({
  id: z.number(),
  campaignId: z.number(),
  userId: z.number(),
  feeLevelId: z.number(),
  status: assignmentStatusSchema,
  /** PENDING past the campaign end is shown as OVERDUE (001 §4). */
  displayStatus: assignmentStatusSchema,
  amount: z.number(),
  paidAmount: z.number().nullable(),
  paidAt: z.string().nullable(),
  paymentDate: z.string().nullable(),
  paymentMethod: paymentMethodSchema.nullable(),
  dueDate: z.string().nullable(),
  notes: z.string().nullable(),
  note: z.string().nullable(),
  assignedBy: z.number().nullable(),
  assignedAt: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  user: z.object({ id: z.number(), familyName: z.string(), givenName: z.string(), code: z.string(), email: z.string(), phone: z.string().nullable() }),
  feeLevel: z.object({ id: z.number(), levelName: z.string(), amount: z.number() }),
  campaign: z.object({
    id: z.number(),
    name: z.string(),
    description: z.string().nullable(),
    status: campaignStatusSchema,
    startDate: z.string(),
    endDate: z.string(),
    organization: z.object({ id: z.number(), name: z.string() }),
  }),
  /** Pay now is offered (own PENDING assignment, ACTIVE campaign not yet ended). */
  canPay: z.boolean(),
});
export type Assignment = z.infer<typeof assignmentSchema>;

// ---- payOS configuration ----

const credential = (required: string) => z.string({ error: required }).trim().min(1, required).max(500, 'validation.textTooLong');

export const createPayosConfigSchema = z.object({
  organizationId: id().optional(),
  clientId: credential('validation.clientIdRequired'),
  apiKey: credential('validation.apiKeyRequired'),
  checksumKey: credential('validation.checksumKeyRequired'),
  isActive: z.boolean({ error: invalid }).optional(),
});
export type CreatePayosConfig = z.output<typeof createPayosConfigSchema>;

/** Absent keys, or the masked value the API returned ('••••abcd'), leave a stored key unchanged. */
export const updatePayosConfigSchema = z.object({
  clientId: credential('validation.clientIdRequired').optional(),
  apiKey: credential('validation.apiKeyRequired').optional(),
  checksumKey: credential('validation.checksumKeyRequired').optional(),
  isActive: z.boolean({ error: invalid }).optional(),
});
export type UpdatePayosConfig = z.output<typeof updatePayosConfigSchema>;

export const testPayosConnectionSchema = z.object({
  clientId: credential('validation.clientIdRequired').optional(),
  apiKey: credential('validation.apiKeyRequired').optional(),
  checksumKey: credential('validation.checksumKeyRequired').optional(),
});
export type TestPayosConnection = z.output<typeof testPayosConnectionSchema>;

export const payosConfigQuery = z.object({ reveal: booleanQuery.optional() });

export const MASK_PREFIX = '••••';

export const payosConfigSchema = z.object({
  id: z.number(),
  campaignId: z.number(),
  organizationId: z.number(),
  clientId: z.string(),
  /** Masked ('••••abcd') unless revealed to a caller who may update the campaign. */
  apiKey: z.string(),
  checksumKey: z.string(),
  masked: z.boolean(),
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PayosConfig = z.infer<typeof payosConfigSchema>;

// ---- Payments ----

/** Only assignmentId is trusted; the amount always comes from the fee level. */
export const createPaymentLinkSchema = z.object({
  assignmentId: id('validation.assignmentRequired'),
  campaignId: id().optional(),
  amount: z.number().optional(),
  description: z.string().max(500).optional(),
  organizationId: id().optional(),
});
export type CreatePaymentLink = z.output<typeof createPaymentLinkSchema>;

export const orderCodeParam = z.object({ orderCode: z.coerce.number({ error: invalid }).int(invalid).positive(invalid) });

export const paymentHistoryQuery = z.object({ page, limit: limit(), status: orderStatusSchema.optional() });
export type PaymentHistoryQuery = z.infer<typeof paymentHistoryQuery>;

export const adminPaymentHistoryQuery = z.object({
  page,
  limit: limit(),
  search,
  /** PAID by default (001 §9); ALL lists every status. */
  status: z.enum([...ORDER_STATUSES, 'ALL'], { error: invalid }).default('PAID'),
});
export type AdminPaymentHistoryQuery = z.infer<typeof adminPaymentHistoryQuery>;

export const payosWebhookSchema = z.object({
  code: z.string().optional(),
  desc: z.string().optional(),
  success: z.boolean().optional(),
  data: z.record(z.string(), z.unknown()),
  /** A missing signature is checked (and refused and logged) like a wrong one. */
  signature: z.string().default(''),
});
export type PayosWebhook = z.infer<typeof payosWebhookSchema>;

export const paymentTransactionSchema = z.object({
  reference: z.string(),
  amount: z.number(),
  accountNumber: z.string().nullable(),
  description: z.string().nullable(),
  transactionDateTime: z.string().nullable(),
});

export const paymentOrderSchema = z.object({
  id: z.number(),
  orderCode: z.number(),
  assignmentId: z.number(),
  campaignId: z.number(),
  amount: z.number(),
  description: z.string(),
  status: orderStatusSchema,
  paymentMethod: paymentMethodSchema,
  checkoutUrl: z.string().nullable(),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
  transactions: z.array(paymentTransactionSchema),
});
export type PaymentOrder = z.infer<typeof paymentOrderSchema>;
