/** Payment orders: payment links, the payOS webhook, payment history and the order response (001 §7). */
import { z } from 'zod';
import { ORDER_STATUSES } from '../enums';
import { id, invalid, limit, orderStatusSchema, page, paymentMethodSchema, search } from './fields';

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
