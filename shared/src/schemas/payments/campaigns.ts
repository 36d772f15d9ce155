/** Campaign requests and responses (001 §3–§4). */
import { z } from 'zod';
import { parseVnDateTime } from '../../format/vn-date-time';
import { feeLevelSchema } from './fee-levels';
import { campaignStatusSchema, id, invalid, limit, nameField, optionalText, page, queryId, search, vnDateTime } from './fields';

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

/**
 * A web address in a campaign name (issue 25 item 15): names go out in reminder e-mails from the
 * union's sender, so "…xác minh tài khoản tại http://evil.example/login" would be phishing. A scheme,
 * "www.", a host with a path, or a host under a common top-level domain counts.
 */
const URL_IN_TEXT =
  /[a-z][a-z0-9+.-]*:\/\/|\bwww\.|\b[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,24}\/|\b[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|net|org|info|biz|vn|io|me|co|ly|app|dev|xyz|site|online|top|link|click|shop|store|vip|pro|club|live|page|example|ru|cn|tk|ml|ga|cf|gq|to|cc|gl|gd|sh|id|edu|gov|ai|us|uk|tv|ws|in|eu|asia|mobi|cloud|tech|space|website|fun|icu|buzz|work|life|world|today|news|one|zip|mov)\b/i;
/**
 * Browsers and mail clients read full-width letters and ideographic full stops ("ｅｖｉｌ。com") as a
 * host, and zero-width characters vanish on screen: the text is folded before the check.
 */
const folded = (text: string) =>
  text
    .normalize('NFKC')
    .replace(/[\u3002\uff61]/g, '.')
    .replace(/[\u200b-\u200d\u2060\ufeff]/g, '');
export const containsUrl = (text: string): boolean => URL_IN_TEXT.test(folded(text));
const campaignName = () => nameField().refine((v) => !containsUrl(v), 'validation.noUrlInName');

export const createCampaignSchema = z
  .object({
    organizationId: id('validation.organizationRequired'),
    name: campaignName(),
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
    name: campaignName().optional(),
    description: optionalText(2000),
    startDate: vnDateTime('validation.startDateRequired').optional(),
    endDate: vnDateTime('validation.endDateRequired').optional(),
  })
  .refine(endAfterStart, { message: 'validation.dateRange', path: ['endDate'] });
export type UpdateCampaign = z.output<typeof updateCampaignSchema>;

/** NOT_FINISHED: only COMPLETED or CANCELLED campaigns go; HAS_PAYMENTS: money records are never deleted. */
export const campaignDeleteBlockSchema = z.enum(['NOT_FINISHED', 'HAS_PAYMENTS']);
export type CampaignDeleteBlock = z.infer<typeof campaignDeleteBlockSchema>;

export const campaignOrganizationSchema = z.object({ id: z.number(), name: z.string(), code: z.string(), type: z.string() });
export const campaignUserSchema = z.object({
  id: z.number(),
  familyName: z.string(),
  givenName: z.string(),
  email: z.string(),
  code: z.string(),
});

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
  /** Money records (paid, received or flagged orders; not sandbox tests): they are kept, so is the campaign. */
  paymentCount: z.number(),
  /** Whether DELETE would be accepted, and why not (the admin hides "Xóa" then; issue 25 item 6). */
  canDelete: z.boolean(),
  deleteBlockedReason: campaignDeleteBlockSchema.nullable(),
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
  /** Σ assignment amounts (exempted fees count 0, reduced ones their reduced amount). */
  totalExpected: z.number(),
  /** Fees waived entirely (status EXEMPTED) and fees reduced, and Σ (original − adjusted amount) over both. */
  exemptedCount: z.number(),
  reducedCount: z.number(),
  waivedAmount: z.number(),
  /** Real money applied to fees: Σ min(counted money, amount) per assignment; sandbox money excluded. */
  collected: z.number(),
  /** totalExpected − collected, exactly. */
  uncollected: z.number(),
  /** Every real đồng held: collected + extraReceived + refundDue. */
  totalReceived: z.number(),
  /** Money above a fee that the treasurer accepted to keep. */
  extraReceived: z.number(),
  /** Unresolved REFUND_DUE money (duplicates, overpayments, payments after cancel). */
  refundDue: z.number(),
  refundDueCount: z.number(),
  /** Fees partly paid: Σ (amount − paid) over them, and how many. */
  balanceDue: z.number(),
  balanceDueCount: z.number(),
  /** Orders with unresolved attention (refund or balance due). */
  attentionCount: z.number(),
  /** Sandbox (test) money, never part of the figures above, and fees PAID only by it. */
  testReceived: z.number(),
  testPaidCount: z.number(),
  /** Unresolved flags on sandbox orders: REFUND_DUE money, and how many orders need the treasurer. */
  testRefundDue: z.number(),
  testAttentionCount: z.number(),
  collectionPercentage: z.number(),
  endDate: z.string(),
  byFeeLevel: z.array(
    z.object({ feeLevelId: z.number(), levelName: z.string(), amount: z.number(), count: z.number(), paidCount: z.number() }),
  ),
});
export type CampaignStatistics = z.infer<typeof campaignStatisticsSchema>;
