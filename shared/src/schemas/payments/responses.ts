/**
 * Response bodies of the payments API that have no schema of their own elsewhere (001 §3–§7). Most
 * payments routes wrap their answer as `{ success, data, message? }` (the reference API's shape,
 * which the admin screens read); `paymentEnvelope` states that once.
 */
import { z } from 'zod';
import { messageResponse } from '../common';
import { organizationTypeSchema } from '../enums';
import { assignmentSchema } from './assignments';
import { campaignSchema } from './campaigns';
import { feeLevelSchema } from './fee-levels';
import {
  attentionKindSchema,
  attentionReasonSchema,
  attentionResolutionSchema,
  assignmentStatusSchema,
  orderStatusSchema,
  paymentMethodSchema,
} from './fields';
import { paymentOrderSchema } from './orders';
import { payosConfigSchema, webhookConfirmationSchema } from './payos-config';

export const paymentEnvelope = <T extends z.ZodType>(data: T) => z.object({ success: z.boolean(), data, message: z.string().optional() });
/** `{ success, message }` without data (deletes, the payOS webhook's answer). */
export const paymentMessage = messageResponse.extend({ success: z.boolean() });

const paged = { total: z.number(), page: z.number(), limit: z.number(), totalPages: z.number() };

export const campaignsOfOrganizationResponse = z.object({ campaigns: z.array(campaignSchema) });
export const feeLevelsOfCampaignResponse = z.object({ feeLevels: z.array(feeLevelSchema) });

/** GET /payment-campaigns/accessible-organizations: where the caller may create a campaign. */
export const campaignOrganizationOptionSchema = z.object({
  id: z.number(),
  name: z.string(),
  code: z.string(),
  type: organizationTypeSchema,
  parentId: z.number().nullable(),
  displayName: z.string(),
});

export const assignmentPageSchema = z.object({ assignments: z.array(assignmentSchema), ...paged });

/** GET /payment/assignments/my-assignments: the member's fees and their totals over every visible campaign. */
export const myAssignmentsSchema = assignmentPageSchema.extend({
  summary: z.object({
    total: z.number(),
    pending: z.number(),
    paid: z.number(),
    overdue: z.number(),
    totalAmount: z.number(),
    paidAmount: z.number(),
  }),
});

export const bulkAssignmentResultSchema = z.object({ createdCount: z.number(), assignments: z.array(assignmentSchema) });
export const overdueResultSchema = z.object({
  success: z.boolean(),
  updatedCount: z.number(),
  data: z.object({ updatedCount: z.number() }),
  message: z.string(),
});

/** POST /payment/create-payment-link: where the member pays (a link handed out again says `reused`). */
export const paymentLinkSchema = z.object({
  checkoutUrl: z.string().nullable(),
  orderCode: z.number(),
  paymentLinkId: z.string().nullable(),
  amount: z.number(),
  description: z.string().nullable(),
  qrCode: z.string().nullable(),
  accountNumber: z.string().nullable(),
  accountName: z.string().nullable(),
  bin: z.string().nullable(),
  reused: z.boolean(),
});

/** GET /payment/history: the member's own orders. */
export const memberPaymentHistorySchema = z.object({
  items: z.array(
    paymentOrderSchema.extend({ campaign: z.object({ id: z.number(), name: z.string() }), feeLevel: z.object({ levelName: z.string() }) }),
  ),
  ...paged,
});

const personRef = z.object({ id: z.number(), familyName: z.string(), givenName: z.string() });
/** GET /payment-admin/payment-history/{campaignId}: every order of a campaign (snake_case, as the reference API). */
export const adminPaymentHistoryItemSchema = z.object({
  id: z.number(),
  order_code: z.number(),
  amount: z.number(),
  status: orderStatusSchema,
  payment_method: paymentMethodSchema,
  manual_method: z.string().nullable(),
  note: z.string().nullable(),
  description: z.string().nullable(),
  paid_at: z.string().nullable(),
  created_at: z.string(),
  recorded_by: personRef.nullable(),
  received_amount: z.number().nullable(),
  is_test: z.boolean(),
  attention: attentionKindSchema.nullable(),
  attention_reason: attentionReasonSchema.nullable(),
  attention_amount: z.number().nullable(),
  resolution: attentionResolutionSchema.nullable(),
  resolved_at: z.string().nullable(),
  resolved_by: personRef.nullable(),
  resolution_note: z.string().nullable(),
  /** Masked payOS credentials of an online order's campaign; null for manual ones. */
  client_id: z.string().nullable(),
  api_key: z.string().nullable(),
  checksum_key: z.string().nullable(),
  assignment: z.object({
    id: z.number(),
    status: assignmentStatusSchema,
    user: z.record(z.string(), z.unknown()),
    feeLevel: z.record(z.string(), z.unknown()),
  }),
});

/** GET /payment-campaigns/{id}/payos-config/effective: the config payments would use now, or why none. */
export const effectivePayosConfigSchema = z.object({
  config: payosConfigSchema.nullable(),
  active: z.boolean(),
  reason: z.string().nullable(),
});
/** Saving a payOS config registers its webhook at payOS; `webhook` is payOS's answer. */
export const payosConfigSavedSchema = paymentEnvelope(payosConfigSchema.nullable()).extend({
  webhook: webhookConfirmationSchema.nullable().optional(),
});
export const connectionResultSchema = paymentEnvelope(
  z.object({ connected: z.boolean(), reason: z.enum(['ok', 'credentials', 'unreachable']) }),
);
