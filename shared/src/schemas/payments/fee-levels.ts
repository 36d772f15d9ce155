/** Fee level requests and responses: the amounts a campaign charges (001 §3). */
import { z } from 'zod';
import { id, invalid, nameField, optionalText } from './fields';

export const feeLevelSchema = z.object({
  id: z.number(),
  campaignId: z.number(),
  levelName: z.string(),
  amount: z.number(),
  description: z.string().nullable(),
  note: z.string().nullable(),
  orderIndex: z.number(),
  isDefault: z.boolean(),
  assignmentCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type FeeLevel = z.infer<typeof feeLevelSchema>;

const amount = z
  .number({ error: 'validation.amountGreaterThanZero' })
  .int('validation.amountInteger')
  .positive('validation.amountGreaterThanZero')
  .max(1_000_000_000, 'validation.amountTooLarge');
const levelName = nameField();
const orderIndex = z.number({ error: invalid }).int(invalid).min(0, invalid);

export const createFeeLevelSchema = z.object({
  campaignId: id('validation.campaignRequired'),
  levelName,
  amount,
  description: optionalText(1000),
  note: optionalText(1000),
  /** Defaults to the number of levels the campaign already has (001 §3). */
  orderIndex: orderIndex.optional(),
});
export type CreateFeeLevel = z.output<typeof createFeeLevelSchema>;

export const updateFeeLevelSchema = z.object({
  levelName: levelName.optional(),
  amount: amount.optional(),
  description: optionalText(1000),
  note: optionalText(1000),
  orderIndex: orderIndex.optional(),
});
export type UpdateFeeLevel = z.output<typeof updateFeeLevelSchema>;
