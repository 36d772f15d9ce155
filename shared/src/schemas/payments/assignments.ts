/** Fee assignments: who owes which fee level of a campaign, and marking them paid (001 §4–§5). */
import { z } from 'zod';
import {
  assignmentStatusSchema,
  attentionKindSchema,
  campaignStatusSchema,
  id,
  invalid,
  limit,
  optionalText,
  page,
  paymentMethodSchema,
  queryId,
  search,
  vnDateTime,
} from './fields';

export const ASSIGNMENT_SORT_FIELDS = [
  'createdAt',
  'dueDate',
  'status',
  'amount',
  'paidAt',
  'memberName',
  'memberCode',
  'feeLevel',
] as const;

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
  assignments: z
    .array(z.object(assignmentFields), { error: 'validation.selectMembers' })
    .min(1, 'validation.selectMembers')
    .max(2000, 'validation.tooManyItems'),
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
  /** Money actually handed over; defaults to the remaining balance. Less leaves a balance due, more a refund due. */
  amount: z
    .number({ error: 'validation.amountGreaterThanZero' })
    .int('validation.amountInteger')
    .positive('validation.amountGreaterThanZero')
    .max(1_000_000_000, 'validation.amountTooLarge')
    .optional(),
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
  /** What this member owes (follows the fee level until money is received; see docs/decisions.md). */
  amount: z.number(),
  /** Money counted towards the fee (refund-due excess excluded); null when nothing was received. */
  paidAmount: z.number().nullable(),
  /** amount − paidAmount, never below 0: what the member still has to pay (an underpaid fee stays payable). */
  remainingAmount: z.number(),
  /** PAID only through the payOS sandbox: no real money. */
  isTestPayment: z.boolean(),
  /** An unresolved money problem on one of its orders (refund or balance due), else null. */
  attention: attentionKindSchema.nullable(),
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
  user: z.object({
    id: z.number(),
    familyName: z.string(),
    givenName: z.string(),
    code: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
  }),
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
  /** EXEMPTED (miễn) or REDUCED (giảm): `amount` is then the adjusted fee and originalAmount the fee before it. */
  adjustment: z.enum(['EXEMPTED', 'REDUCED']).nullable(),
  originalAmount: z.number().nullable(),
  adjustmentReason: z.string().nullable(),
  adjustedAt: z.string().nullable(),
  /** Pay now is offered (own PENDING assignment, ACTIVE campaign not yet ended, payOS on); the link is for remainingAmount. */
  canPay: z.boolean(),
  /**
   * Why pay now is not offered (null when it is): NOT_OWNER, NOTHING_DUE (paid, exempted), CAMPAIGN_CLOSED
   * (not ACTIVE), CAMPAIGN_ENDED, NO_ONLINE_PAYMENT (no active payOS configuration: the member pays
   * the treasurer of campaign.organization, who marks the fee paid).
   */
  cannotPayReason: z.enum(['NOT_OWNER', 'NOTHING_DUE', 'CAMPAIGN_CLOSED', 'CAMPAIGN_ENDED', 'NO_ONLINE_PAYMENT']).nullable(),
  /** Money received on this fee that is waiting to be refunded to the member (refund due, not yet resolved). */
  refundDue: z.number(),
  /** "Xóa" would be accepted: campaign not finished, fee not paid, no order that received money (a reversed payment included). */
  canDelete: z.boolean(),
});
export type Assignment = z.infer<typeof assignmentSchema>;
