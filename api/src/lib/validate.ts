import type { MiddlewareHandler, ValidationTargets } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { uniqueSymbol, validator } from 'hono-openapi';
import type { ZodType } from 'zod';
import { pickLanguage, translate } from './i18n';
import { checkJsonBody } from './json-body';

/**
 * Request validation with our error contract: 400 `{ message, issues }`, with the shared schema's
 * message keys translated into the caller's language. Built on hono-openapi's validator so every
 * validated route appears in the OpenAPI document at /api/docs. A JSON body is first held to
 * the shared body rules (json-body.ts: 415 when it is not JSON, 400 when nested too deep).
 */
export function validate<T extends ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  const inner = validator(target, schema, (result, c) => {
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
  if (target !== 'json') return inner;
  const guarded: MiddlewareHandler = async (c, next) => {
    await checkJsonBody(c);
    return inner(c, next);
  };
  // The OpenAPI document finds the schema on the middleware itself.
  Object.defineProperty(guarded, 'name', { value: 'validator', configurable: true });
  return Object.assign(guarded, { [uniqueSymbol]: (inner as unknown as Record<symbol, unknown>)[uniqueSymbol] }) as unknown as typeof inner;
}
