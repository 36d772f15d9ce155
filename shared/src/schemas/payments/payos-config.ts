/** A campaign's payOS credentials: create, update, test and the masked response (001 §6). */
import { z } from 'zod';
import { booleanQuery } from '../common';
import { id, invalid } from './fields';

const credential = (required: string) => z.string({ error: required }).trim().min(1, required).max(500, 'validation.textTooLong');

const credentials = {
  clientId: credential('validation.clientIdRequired'),
  apiKey: credential('validation.apiKeyRequired'),
  checksumKey: credential('validation.checksumKeyRequired'),
};
/** The same three keys, each optional. */
const optionalCredentials = z.object(credentials).partial().shape;
const isActive = z.boolean({ error: invalid }).optional();

export const createPayosConfigSchema = z.object({ organizationId: id().optional(), ...credentials, isActive });
export type CreatePayosConfig = z.output<typeof createPayosConfigSchema>;

/** Absent keys, or the masked value the API returned ('••••abcd'), leave a stored key unchanged. */
export const updatePayosConfigSchema = z.object({ ...optionalCredentials, isActive });
export type UpdatePayosConfig = z.output<typeof updatePayosConfigSchema>;

export const testPayosConnectionSchema = z.object(optionalCredentials);
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
