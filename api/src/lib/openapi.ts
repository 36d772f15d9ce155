/**
 * GET /api/docs: the OpenAPI document of every /api route (openapi.test.ts compares it with the
 * route table). Routes with validators carry their request schemas; every route carries the real
 * error bodies from shared (`{ message }`, and `{ message, issues }` for a 400).
 */
import { errorResponse, validationErrorResponse } from '@doanhoi/shared';
import type { Hono } from 'hono';
import { openAPIRouteHandler } from 'hono-openapi';
import { z } from 'zod';
import type { AppEnv } from './context';

const json = (description: string, schema: z.ZodType) => ({ description, content: { 'application/json': { schema: z.toJSONSchema(schema) as Record<string, unknown> } } });

const ERRORS = {
  400: json('Invalid request: the message joins the issues', validationErrorResponse),
  401: json('Not signed in, or the session expired', errorResponse),
  403: json('The caller lacks the permission', errorResponse),
  404: json('Not found, or not visible to the caller', errorResponse),
  409: json('Conflicts with the current state', errorResponse),
  413: json('Body too large', errorResponse),
  500: json('Unexpected error (details only in the server log)', errorResponse),
};

export function apiDocs(api: Hono<AppEnv>) {
  const defaults = { responses: ERRORS };
  return openAPIRouteHandler(api, {
    includeEmptyPaths: true,
    defaultValidationErrorResponse: ERRORS[400],
    defaultOptions: { GET: defaults, POST: defaults, PUT: defaults, PATCH: defaults, DELETE: defaults },
    documentation: {
      info: { title: 'Doan Hoi Admin API', version: '1.0.0', description: 'Errors are JSON { message } with the HTTP status; a 400 from validation adds issues [{ path, message }].' },
      servers: [{ url: '/api' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
  });
}
