/** Payment orders: payment links, the payOS webhook, payment history and the order response (001 §7). */
import { z } from 'zod';
import { ORDER_STATUSES } from '../enums';
import {
  attentionKindSchema,
  attentionReasonSchema,
  attentionResolutionSchema,
  id,
  invalid,
  limit,
  optionalText,
  orderStatusSchema,
  page,
  paymentMethodSchema,
  search,
} from './fields';

/** Only assignmentId is trusted; the amount is the assignment's remaining balance. An open link is reused. */
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
  /** OPEN: unresolved refund/balance due (any status); RESOLVED: resolved ones; absent: no filter. */
  attention: z.enum(['OPEN', 'RESOLVED'], { error: invalid }).optional(),
  /** false hides sandbox (test) orders; absent shows them (flagged is_test). */
  includeTest: z.enum(['true', 'false'], { error: invalid }).optional(),
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

/** POST /payment-admin/orders/{id}/resolve: the treasurer's answer to an order needing attention. */
export const resolveAttentionSchema = z.object({
  /** REFUNDED: the excess went back to the payer (refund due only). ACCEPTED: keep the excess, or waive the balance. */
  resolution: z.enum(['REFUNDED', 'ACCEPTED'], { error: 'validation.resolutionRequired' }),
  note: optionalText(1000),
});
export type ResolveAttention = z.output<typeof resolveAttentionSchema>;

/** Money fields every order carries (member and admin views). */
export const orderMoneyFields = {
  /** Money that actually arrived on this order (can differ from amount). */
  receivedAmount: z.number(),
  /** Paid through the payOS sandbox: no real money. */
  isTest: z.boolean(),
  attention: attentionKindSchema.nullable(),
  attentionReason: attentionReasonSchema.nullable(),
  /** The excess to refund, or the balance still due, when the money arrived. */
  attentionAmount: z.number().nullable(),
  resolution: attentionResolutionSchema.nullable(),
  resolvedAt: z.string().nullable(),
  resolutionNote: z.string().nullable(),
};

/**
 * What an order meant for its fee, as the member's pages tell it (issue 25.3c, 25.5): the money that
 * arrived, what of it counted, what is to be or was refunded, what the fee still needs now, and
 * whether a receipt exists (only for money that counted; a reversed one is kept but marked).
 */
export const orderOutcomeSchema = z.object({
  received: z.number(),
  counted: z.number(),
  refundDue: z.number(),
  refunded: z.number(),
  /** The fee's balance now (0 once paid or exempted), whichever order paid it. */
  stillDue: z.number(),
  receipt: z.boolean(),
  /** A reversed mark-paid: when and why (its money no longer counts). */
  reversedAt: z.string().nullable(),
  reversalReason: z.string().nullable(),
  /** On a reversing entry: the order code it cancels. */
  reversesOrderCode: z.number().nullable(),
});
export type OrderOutcome = z.infer<typeof orderOutcomeSchema>;

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
  ...orderMoneyFields,
  transactions: z.array(paymentTransactionSchema),
  /** Added by the member's routes (check-status, process, cancel, history). */
  outcome: orderOutcomeSchema.optional(),
});
export type PaymentOrder = z.infer<typeof paymentOrderSchema>;
