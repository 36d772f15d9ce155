/**
 * A route's success answer, declared on the route itself: `.get('/', ok(listResponse, '…'), requireAuth, …)`.
 * Each helper is a middleware carrying hono-openapi's describeRoute() marks (it only calls next) and the answer,
 * so /api/docs is generated from the routes (index.ts), openapi.test.ts and `npm run lint`
 * (scripts/undocumented-routes.ts) fail on a mounted route without one, and the test harness checks
 * every 2xx JSON body the API tests receive against it (check.ts).
 */
import type { MiddlewareHandler } from 'hono';
import { describeRoute } from 'hono-openapi';
import type { z } from 'zod';

export interface ResponseSpec {
  status: number;
  description: string;
  /** The JSON body; absent for a file download or a redirect. */
  schema?: z.ZodType;
  /** Not JSON: the body's media type (a file), or none at all (a redirect). */
  mediaType?: string;
}

const CONTRACT = Symbol('contract');

/**
 * The answer a route declares; its OpenAPI response is filled in when /api/docs is built (index.ts).
 * describeRoute's marks on a pass-through that returns next() itself: describeRoute's own function is
 * async, a frame and a few promises more on every request of every route.
 */
export function answers(spec: ResponseSpec): MiddlewareHandler {
  const passThrough: MiddlewareHandler = (_c, next) => next();
  return Object.assign(passThrough, describeRoute({ responses: {} }), { [CONTRACT]: spec });
}

/** The declared answer, when this handler is a declaration. */
export const contractOf = (handler: unknown): ResponseSpec | undefined => (handler as { [CONTRACT]?: ResponseSpec } | null)?.[CONTRACT];

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const ok = (schema: z.ZodType, description = 'OK') => answers({ status: 200, description, schema });
export const created = (schema: z.ZodType, description = 'Created') => answers({ status: 201, description, schema });
export const xlsx = (description: string) => answers({ status: 200, description, mediaType: XLSX });
export const redirect = (description: string) => answers({ status: 302, description });
