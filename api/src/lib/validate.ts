import type { ValidationTargets } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { validator } from 'hono-openapi';
import type { ZodType } from 'zod';
import { pickLanguage, translate } from './i18n';

/**
 * Request validation with our error contract: 400 `{ message, issues }`, with the shared schema's
 * message keys translated into the caller's language. Built on hono-openapi's validator so every
 * validated route appears in the OpenAPI document at /api/docs.
 */
export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return validator(target, schema, (result, c) => {
    if (!result.success) {
      const lang = pickLanguage(c.req.header('accept-language'));
      const issues = result.error.map((i) => ({
        path: (i.path ?? []).map((p) => (typeof p === 'object' ? String(p.key) : String(p))).join('.'),
        message: translate(i.message, lang),
      }));
      const message = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
      throw new HTTPException(400, { message, cause: { issues } });
    }
  });
}
