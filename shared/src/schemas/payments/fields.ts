/** Field builders and status enums used by every payments schema module (messages are `validation.*` keys). */
import { z } from 'zod';
import { cleanLine, cleanText } from '../common';
import { parseVnDateTime } from '../../format/vn-date-time';
import { ASSIGNMENT_STATUSES, CAMPAIGN_STATUSES, ORDER_STATUSES, PAYMENT_METHODS } from '../enums';

export const invalid = 'validation.invalidValue';

/** A date-time field: a string that parseVnDateTime accepts (kept as the string; the API converts). */
export function vnDateTime(required: string, endOfDay = false) {
  return z
    .string({ error: required })
    .trim()
    .min(1, { error: required, abort: true })
    .refine((v) => parseVnDateTime(v, { endOfDay }) !== null, 'validation.dateTimeInvalid');
}

export const optionalText = (max: number) =>
  z
    .string({ error: invalid })
    .overwrite(cleanText)
    .trim()
    .max(max, 'validation.textTooLong')
    .nullish()
    .transform((v) => (v === undefined ? undefined : v === null || v === '' ? null : v));

export const id = (message = invalid) => z.number({ error: message }).int(message).positive(message);
export const queryId = z.coerce.number({ error: invalid }).int(invalid).positive(invalid);
export const page = z.coerce.number({ error: invalid }).int(invalid).min(1, invalid).default(1);
export const limit = (max = 100) => z.coerce.number({ error: invalid }).int(invalid).min(1, invalid).max(max, invalid).default(10);
export const search = z.string().trim().max(200, 'validation.textTooLong').optional();

export const campaignStatusSchema = z.enum(CAMPAIGN_STATUSES, { error: invalid });
export const assignmentStatusSchema = z.enum(ASSIGNMENT_STATUSES, { error: invalid });
export const orderStatusSchema = z.enum(ORDER_STATUSES, { error: invalid });
export const paymentMethodSchema = z.enum(PAYMENT_METHODS);

/** Money that did not fit its fee (issue 11.3): refund the excess, or collect the rest. */
export const ATTENTION_KINDS = ['REFUND_DUE', 'BALANCE_DUE'] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];
/** DUPLICATE: the fee was already paid; AFTER_CLOSE: paid into a cancelled campaign; OVERPAID / UNDERPAID: another amount; AFTER_EXEMPTION: the fee was waived. */
export const ATTENTION_REASONS = ['DUPLICATE', 'AFTER_CLOSE', 'OVERPAID', 'UNDERPAID', 'AFTER_EXEMPTION'] as const;
export type AttentionReason = (typeof ATTENTION_REASONS)[number];
/** REFUNDED and ACCEPTED are the treasurer's; SETTLED is set when the member paid the balance. */
export const ATTENTION_RESOLUTIONS = ['REFUNDED', 'ACCEPTED', 'SETTLED'] as const;
export type AttentionResolution = (typeof ATTENTION_RESOLUTIONS)[number];
export const attentionKindSchema = z.enum(ATTENTION_KINDS, { error: invalid });
export const attentionReasonSchema = z.enum(ATTENTION_REASONS, { error: invalid });
export const attentionResolutionSchema = z.enum(ATTENTION_RESOLUTIONS, { error: invalid });

/** A required one-line name (campaign, fee level): the shared text rule, then 1–200 characters. */
export const nameField = () =>
  z
    .string({ error: 'validation.nameRequired' })
    .overwrite(cleanLine)
    .trim()
    .min(1, 'validation.nameRequired')
    .max(200, 'validation.textTooLong');
