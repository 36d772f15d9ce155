/** A campaign's payOS credentials: create, update, test and the masked response (001 §6). */
import { z } from 'zod';
import { booleanQuery } from '../common';
import { id, invalid } from './fields';

export const MASK_PREFIX = '••••';

/** payOS keys are printable ASCII (they go into HTTP headers): a masked '••••abcd' or any other character is refused. */
const credential = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(500, 'validation.textTooLong')
    .regex(/^[\x21-\x7e]+$/, 'validation.credentialInvalid');
/** On update the masked value the API returned ('••••abcd') means "keep the stored key". */
const credentialOrMask = (required: string) =>
  z.union([credential(required), z.string().trim().startsWith(MASK_PREFIX).max(50)], { error: 'validation.credentialInvalid' });
/** 9 fits every bank account; up to 25 only for accounts linked through payOS. Its own message: the form refuses, never clamps. */
const lengthRange = 'validation.descriptionLengthRange';
const descriptionMaxLength = z.number({ error: lengthRange }).int(lengthRange).min(9, lengthRange).max(25, lengthRange).optional();

const credentials = {
  clientId: credential('validation.clientIdRequired'),
  apiKey: credential('validation.apiKeyRequired'),
  checksumKey: credential('validation.checksumKeyRequired'),
};
/** The same three keys, each optional, each also accepting the masked value. */
const optionalCredentials = {
  clientId: credential('validation.clientIdRequired').optional(),
  apiKey: credentialOrMask('validation.apiKeyRequired').optional(),
  checksumKey: credentialOrMask('validation.checksumKeyRequired').optional(),
};
const isActive = z.boolean({ error: invalid }).optional();

export const createPayosConfigSchema = z.object({ organizationId: id().optional(), ...credentials, isActive, descriptionMaxLength });
export type CreatePayosConfig = z.output<typeof createPayosConfigSchema>;

/** Absent keys, or the stored key's own masked value, leave it unchanged; another masked value is refused (400). */
export const updatePayosConfigSchema = z.object({ ...optionalCredentials, isActive, descriptionMaxLength });
export type UpdatePayosConfig = z.output<typeof updatePayosConfigSchema>;

export const testPayosConnectionSchema = z.object(optionalCredentials);
export type TestPayosConnection = z.output<typeof testPayosConnectionSchema>;

export const payosConfigQuery = z.object({ reveal: booleanQuery.optional() });

/** The answer to registering the webhook URL with payOS (on save, and POST …/payos-config/confirm-webhook). */
export const webhookConfirmationSchema = z.object({ webhookUrl: z.string(), confirmed: z.boolean(), message: z.string() });
export type WebhookConfirmation = z.infer<typeof webhookConfirmationSchema>;

/** POST …/payos-config/test-connection → data. */
export const connectionTestSchema = z.object({
  connected: z.boolean(),
  /** ok, credentials (wrong client id / api key / checksum key), unreachable (payOS could not be reached or answered garbage). */
  reason: z.enum(['ok', 'credentials', 'unreachable']),
});

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
  descriptionMaxLength: z.number(),
  /** Where payOS must send webhooks (from PUBLIC_URL), to show and register. */
  webhookUrl: z.string(),
  /** The URL payOS last confirmed, when, and its last answer (null: never registered). */
  webhookConfirmedUrl: z.string().nullable(),
  webhookConfirmedAt: z.string().nullable(),
  webhookMessage: z.string().nullable(),
  /** Payments go to the embedded sandbox: test payments only. */
  sandbox: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PayosConfig = z.infer<typeof payosConfigSchema>;
