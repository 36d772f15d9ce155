/** Đoàn phí by rule and remittance up the tree (issue 30 items 4–5): requests and responses. */
import { z } from 'zod';
import { campaignSchema, createCampaignSchema } from './payments/campaigns';
import { id, invalid, optionalText, queryId, vnDateTime } from './payments/fields';
import { ORGANIZATION_TYPES, USER_TYPES, userTypeSchema } from './enums';

/**
 * The rule of the Central Committee's guidance (NOTES, HD 31-HD/TWĐTN-BTK): students pay 2,000 ₫ a
 * month. Staff members have no figure there: the same 2,000 ₫ until an office sets its own.
 */
export const DEFAULT_DUES_RATES: Record<(typeof USER_TYPES)[number], number> = { student: 2000, staff: 2000 };
/** Each level keeps 2/3 of what it handles and remits 1/3 up (NOTES), unless its type says otherwise. */
export const DEFAULT_KEEP_SHARE = { keepNumerator: 2, keepDenominator: 3 } as const;

const money = z.number({ error: invalid }).int(invalid).min(0, invalid).max(100_000_000, invalid);

// ---- Rates --------------------------------------------------------------------------------------

export const duesRatesQuery = z.object({ organizationId: queryId });
export type DuesRatesQuery = z.infer<typeof duesRatesQuery>;

export const duesRateSchema = z.object({
  memberType: userTypeSchema,
  monthlyAmount: z.number().int(),
  /** own: set on this unit; inherited: from the unit named; default: the built-in rule. */
  source: z.enum(['own', 'inherited', 'default']),
  sourceOrganizationId: z.number().int().nullable(),
  sourceOrganizationName: z.string().nullable(),
});
export type DuesRate = z.infer<typeof duesRateSchema>;
export const duesRatesResponse = z.object({ organizationId: z.number().int(), rates: z.array(duesRateSchema) });
export type DuesRatesResponse = z.infer<typeof duesRatesResponse>;

/** monthlyAmount null removes the unit's own rate, so it inherits again. */
export const updateDuesRatesSchema = z.object({
  organizationId: id('validation.organizationRequired'),
  rates: z
    .array(z.object({ memberType: z.enum(USER_TYPES, { error: invalid }), monthlyAmount: money.nullable() }), { error: invalid })
    .min(1, invalid)
    .max(USER_TYPES.length, invalid)
    .refine((rs) => new Set(rs.map((r) => r.memberType)).size === rs.length, invalid),
});
export type UpdateDuesRates = z.infer<typeof updateDuesRatesSchema>;

// ---- Shares per organization type --------------------------------------------------------------

export const duesShareSchema = z.object({
  organizationType: z.enum(ORGANIZATION_TYPES),
  keepNumerator: z.number().int(),
  keepDenominator: z.number().int(),
  isDefault: z.boolean(),
});
export type DuesShare = z.infer<typeof duesShareSchema>;
export const duesSharesResponse = z.object({ shares: z.array(duesShareSchema) });

export const updateDuesSharesSchema = z.object({
  shares: z
    .array(
      z
        .object({
          organizationType: z.enum(ORGANIZATION_TYPES, { error: invalid }),
          keepNumerator: z.number({ error: invalid }).int(invalid).min(0, invalid).max(1000, invalid),
          keepDenominator: z.number({ error: invalid }).int(invalid).min(1, invalid).max(1000, invalid),
        })
        .refine((s) => s.keepNumerator <= s.keepDenominator, { message: 'dues.validation.shareAboveOne', path: ['keepNumerator'] }),
      { error: invalid },
    )
    .min(1, invalid)
    .max(ORGANIZATION_TYPES.length, invalid),
});
export type UpdateDuesShares = z.infer<typeof updateDuesSharesSchema>;

// ---- Generating a campaign ---------------------------------------------------------------------

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const month = (required: string) => z.string({ error: required }).trim().regex(MONTH, 'dues.validation.monthInvalid');
/** "2025-03" → 2025 × 12 + 2, so months subtract. */
export const monthIndex = (v: string): number => {
  const m = MONTH.exec(v)!;
  return Number(m[1]) * 12 + Number(m[2]) - 1;
};
export const MAX_DUES_MONTHS = 24;

export const generateDuesSchema = z
  .object({
    organizationId: id('validation.organizationRequired'),
    // The campaign's own name and description rules (no web address in a name).
    name: createCampaignSchema.shape.name,
    description: createCampaignSchema.shape.description,
    /** The first and last month of the period (a year: 01–12; a half-year or semester: six months). */
    fromMonth: month('dues.validation.fromMonthRequired'),
    toMonth: month('dues.validation.toMonthRequired'),
    /** When the fees are due; the last day of toMonth when absent. */
    dueDate: vnDateTime(invalid, true).optional(),
  })
  .refine((v) => !MONTH.test(v.fromMonth) || !MONTH.test(v.toMonth) || monthIndex(v.toMonth) >= monthIndex(v.fromMonth), {
    message: 'dues.validation.monthRange',
    path: ['toMonth'],
  })
  .refine((v) => !MONTH.test(v.fromMonth) || !MONTH.test(v.toMonth) || monthIndex(v.toMonth) - monthIndex(v.fromMonth) < MAX_DUES_MONTHS, {
    message: 'dues.validation.periodTooLong',
    path: ['toMonth'],
  });
export type GenerateDues = z.infer<typeof generateDuesSchema>;

export const duesPlanLevelSchema = z.object({
  memberType: userTypeSchema,
  months: z.number().int(),
  monthlyAmount: z.number().int(),
  amount: z.number().int(),
  levelName: z.string(),
  /** Full period, or pro-rata for members who joined during it. */
  proRata: z.boolean(),
  count: z.number().int(),
  total: z.number().int(),
});
export const duesPlanExampleSchema = z.object({
  userId: z.number().int(),
  code: z.string(),
  fullName: z.string(),
  memberType: userTypeSchema,
  joinedAt: z.string(),
  months: z.number().int(),
  amount: z.number().int(),
});
export const duesPlanSchema = z.object({
  organizationId: z.number().int(),
  fromMonth: z.string(),
  toMonth: z.string(),
  months: z.number().int(),
  rates: z.array(duesRateSchema),
  levels: z.array(duesPlanLevelSchema),
  totalMembers: z.number().int(),
  totalAmount: z.number().int(),
  /** Active members who joined after the period: nothing to pay for it. */
  skippedAfterPeriod: z.number().int(),
  examples: z.array(duesPlanExampleSchema),
});
export type DuesPlan = z.infer<typeof duesPlanSchema>;
export const duesGeneratedSchema = z.object({ campaign: campaignSchema, plan: duesPlanSchema, assignmentsCreated: z.number().int() });
export type DuesGenerated = z.infer<typeof duesGeneratedSchema>;

// ---- Remittance --------------------------------------------------------------------------------

export const remittanceQuery = z.object({ organizationId: queryId.optional() });

export const remittanceUnitSchema = z.object({
  organizationId: z.number().int(),
  parentId: z.number().int().nullable(),
  name: z.string(),
  code: z.string(),
  type: z.string(),
  /** The unit asked about (first row); the others are its direct units. */
  isSelf: z.boolean(),
  /** Money counted towards the campaign's fees from members in the unit and beneath it. */
  collected: z.number().int(),
  /** Of it, from members of this unit itself (not of a unit beneath). */
  ownCollected: z.number().int(),
  /** What the units directly beneath owe this one (their owedUp). */
  dueFromBelow: z.number().int(),
  keepNumerator: z.number().int(),
  keepDenominator: z.number().int(),
  /** Its share of ownCollected + dueFromBelow. */
  kept: z.number().int(),
  /** The rest, owed to the level above (0 at the top of the tree). */
  owedUp: z.number().int(),
  /** Remittances from the units beneath that this unit confirmed. */
  receivedFromBelow: z.number().int(),
  /** Its own remittances the level above confirmed. */
  confirmed: z.number().int(),
  /** Its own remittances not confirmed yet: still owed. */
  pending: z.number().int(),
  /** owedUp − confirmed (never below 0). */
  outstanding: z.number().int(),
});
export type RemittanceUnit = z.infer<typeof remittanceUnitSchema>;

export const REMITTANCE_STATUSES = ['PENDING', 'CONFIRMED', 'CANCELLED'] as const;
export const remittanceSchema = z.object({
  id: z.number().int(),
  campaignId: z.number().int(),
  fromOrganizationId: z.number().int(),
  fromOrganizationName: z.string(),
  toOrganizationId: z.number().int(),
  toOrganizationName: z.string(),
  amount: z.number().int(),
  paidAt: z.string(),
  note: z.string().nullable(),
  status: z.enum(REMITTANCE_STATUSES),
  createdBy: z.number().int().nullable(),
  createdByName: z.string().nullable(),
  confirmedBy: z.number().int().nullable(),
  confirmedByName: z.string().nullable(),
  confirmedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Remittance = z.infer<typeof remittanceSchema>;

export const remittanceReportSchema = z.object({
  campaignId: z.number().int(),
  organizationId: z.number().int(),
  units: z.array(remittanceUnitSchema),
  /** Sums over the direct units (the first row excluded). */
  totals: remittanceUnitSchema.pick({ collected: true, kept: true, owedUp: true, confirmed: true, pending: true, outstanding: true }),
  /** Remittances this unit sent up or received from below, newest first. */
  remittances: z.array(remittanceSchema),
});
export type RemittanceReport = z.infer<typeof remittanceReportSchema>;

export const remittanceCampaignsResponse = z.object({
  campaigns: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      status: z.string(),
      organizationId: z.number().int(),
      organizationName: z.string(),
      startDate: z.string(),
    }),
  ),
});

export const createRemittanceSchema = z.object({
  campaignId: id(invalid),
  fromOrganizationId: id('validation.organizationRequired'),
  amount: z
    .number({ error: 'dues.validation.amountRequired' })
    .int(invalid)
    .min(1, 'dues.validation.amountPositive')
    .max(10_000_000_000, invalid),
  /** When the money was handed over; today when absent. */
  paidAt: vnDateTime('dues.validation.paidAtRequired').optional(),
  note: optionalText(1000),
});
export type CreateRemittance = z.infer<typeof createRemittanceSchema>;
