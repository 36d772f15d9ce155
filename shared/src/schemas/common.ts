import { z } from 'zod';

/** Messages are translation keys of the `validation` namespace; the API and the forms translate them. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PASSWORD_MIN = 6;

export const idParam = z.object({ id: z.coerce.number().int().positive() });

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});

export const booleanQuery = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

export const idsBody = z.object({ ids: z.array(z.number().int().positive()).min(1, 'validation.idsRequired').max(1000) });

export const messageResponse = z.object({ message: z.string() });

/**
 * Every error answer: `{ message }` in the caller's language, with the HTTP status (000 §8).
 * @alias
 */
export const errorResponse = messageResponse;

/** 400 from request validation: the joined message and one entry per failing field. */
export const validationErrorResponse = messageResponse.extend({
  issues: z.array(z.object({ path: z.string(), message: z.string() })),
});
