/**
 * Exemptions (miễn), reductions (giảm) and reversed mark-paids (issue 15.3). Every one needs a
 * reason: it is what the audit log and the treasurer's export show to whoever checks the books.
 */
import { z } from 'zod';
import { cleanText } from '../common';
import { id } from './fields';

export const REASON_MAX = 500;

/** The shared text rule (invisible characters removed), trimmed, 1–500 characters. */
export const reasonField = z
  .string({ error: 'validation.reasonRequired' })
  .overwrite(cleanText)
  .trim()
  .min(1, { error: 'validation.reasonRequired', abort: true })
  .max(REASON_MAX, 'validation.textTooLong');

export const exemptAssignmentSchema = z.object({ reason: reasonField });
export type ExemptAssignment = z.output<typeof exemptAssignmentSchema>;

/** The new fee: above 0 (0 is an exemption) and below the current amount (checked by the API). */
export const reduceAssignmentSchema = z.object({
  amount: z
    .number({ error: 'validation.amountGreaterThanZero' })
    .int('validation.amountInteger')
    .positive('validation.amountGreaterThanZero')
    .max(1_000_000_000, 'validation.amountTooLarge'),
  reason: reasonField,
});
export type ReduceAssignment = z.output<typeof reduceAssignmentSchema>;

/** Undoing an exemption or reduction: the fee goes back to its original amount. */
export const revokeAdjustmentSchema = z.object({ reason: reasonField });
export type RevokeAdjustment = z.output<typeof revokeAdjustmentSchema>;

/** Reversing a mistaken mark-paid; without orderId, the assignment's latest manual payment still in force. */
export const reversePaymentSchema = z.object({ reason: reasonField, orderId: id().optional() });
export type ReversePayment = z.output<typeof reversePaymentSchema>;
