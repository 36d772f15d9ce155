import { z } from 'zod';

// The pages run under a CSP without 'unsafe-eval': zod's compiled object parsers would be refused
// there (each probe reported as a violation), so in a browser zod interprets its schemas. This
// runs before any schema is built (common is the first schema module the barrel loads).
if ('document' in globalThis) z.config({ jitless: true });

/** Messages are translation keys of the `validation` namespace; the API and the forms translate them. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const PASSWORD_MIN = 6;
/** Longest password a user may choose (hashing a 5 MB one was accepted before). */
export const PASSWORD_MAX = 128;
/** Longest password a sign-in or a current-password check reads (older passwords were up to 200). */
export const PASSWORD_INPUT_MAX = 1024;

/**
 * The text rule for everything a person types or imports: characters that cannot be seen but
 * change what is shown or matched are removed. NUL and other control characters, bidi
 * embeddings/overrides/isolates and marks, zero-width spaces and joiners, word joiners and the
 * BOM. Tabs and line breaks become one space in a single line (names, codes, e-mails); free text
 * (descriptions) keeps its line breaks, as \n.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this rule's whole job
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

export function cleanLine(s: string): string {
  return s.replace(/[\t\r\n]+/g, ' ').replace(INVISIBLE, '');
}

export function cleanText(s: string): string {
  return s.replace(/\r\n?/g, '\n').replace(INVISIBLE, '');
}

/** A new password: 6 to 128 characters, not only spaces. */
export const newPasswordField = z
  .string({ error: 'validation.passwordRequired' })
  .min(PASSWORD_MIN, 'validation.passwordMinLength')
  .max(PASSWORD_MAX, { error: 'validation.passwordTooLong', abort: true })
  .refine((v) => v.trim().length > 0, 'validation.passwordBlank');

export const idParam = z.object({ id: z.coerce.number().int().positive() });

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});

export const booleanQuery = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const idsBody = z.object({ ids: z.array(z.number().int().positive()).min(1, 'validation.idsRequired').max(1000) });

export const messageResponse = z.object({ message: z.string() });

/**
 * Every error answer: `{ message }` in the caller's language, with the HTTP status (000 §8).
 * @alias
 */
export const errorResponse = messageResponse;

/** The messages per input (`{ code: ['Mã "X" đã tồn tại'] }`), the shape Refine's forms show under each field. */
const fieldErrors = z.record(z.string(), z.array(z.string()));

/** 400 from request validation: the joined message, one entry per failing field, and the same per field. */
export const validationErrorResponse = messageResponse.extend({
  issues: z.array(z.object({ path: z.string(), message: z.string() })),
  errors: fieldErrors.optional(),
});

/** 409: `errors` names the input that collided when one did (a taken code, e-mail or name). */
export const conflictErrorResponse = messageResponse.extend({ errors: fieldErrors.optional() });
