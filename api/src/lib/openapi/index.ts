/**
 * GET /api/docs: the OpenAPI document of every /api route, generated from the routes themselves:
 * request schemas from their validate() middlewares, the success answer from the ok()/created()/…
 * declaration each route carries (contract.ts, schemas from shared), and on every route the real
 * error bodies (`{ message }`, and `{ message, issues }` for a 400). openapi.test.ts compares the
 * document with the route table.
 */
import { conflictErrorResponse, errorResponse, validationErrorResponse } from '@doanhoi/shared';
import type { Context, Hono } from 'hono';
import { generateSpecs, uniqueSymbol } from 'hono-openapi';
import { z } from 'zod';
import type { AppEnv } from '../context';
import { contractOf, type ResponseSpec } from './contract';

/** Hono's `/users/:id{[0-9]+}` → OpenAPI's `/users/{id}`. */
export const openApiPath = (p: string) => p.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}');

type JsonSchema = Record<string, unknown>;

/**
 * zod's JSON Schema with its `$defs` (recursive schemas such as the organization tree) moved to
 * components.schemas: a `#/$defs/…` reference would resolve against the whole document.
 */
function jsonSchema(schema: z.ZodType, components: Record<string, JsonSchema>): JsonSchema {
  const {
    $schema: _,
    $defs,
    ...root
  } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
  if (!$defs) return root;
  const names = new Map(Object.keys($defs).map((k) => [k, `S${Object.keys(components).length}_${k.replace(/\W/g, '')}`]));
  const relink = (v: unknown) =>
    JSON.parse(JSON.stringify(v).replace(/"#\/\$defs\/([^"]+)"/g, (_m, k: string) => `"#/components/schemas/${names.get(k)}"`));
  for (const [k, def] of Object.entries($defs)) components[names.get(k)!] = relink(def);
  return relink(root);
}

const json = (description: string, schema: z.ZodType, components: Record<string, JsonSchema>) => ({
  description,
  content: { 'application/json': { schema: jsonSchema(schema, components) } },
});

function errors(components: Record<string, JsonSchema>) {
  return {
    400: json('Invalid request: the message joins the issues', validationErrorResponse, components),
    401: json('Not signed in, or the session expired', errorResponse, components),
    403: json('The caller lacks the permission', errorResponse, components),
    404: json('Not found, or not visible to the caller', errorResponse, components),
    409: json('Conflicts with the current state; errors names the field that collided', conflictErrorResponse, components),
    413: json('Body too large', errorResponse, components),
    500: json('Unexpected error (details only in the server log)', errorResponse, components),
  };
}

function success(spec: ResponseSpec, components: Record<string, JsonSchema>) {
  if (spec.schema) return json(spec.description, spec.schema, components);
  if (spec.mediaType)
    return { description: spec.description, content: { [spec.mediaType]: { schema: { type: 'string', format: 'binary' } } } };
  return { description: spec.description };
}

async function buildDocument(api: Hono<AppEnv>, c: Context<AppEnv>) {
  const schemas: Record<string, JsonSchema> = {};
  const errorBodies = errors(schemas);
  // Each route's declared answer becomes its describeRoute() response, converted here so that
  // recursive schemas get one components entry each (see jsonSchema).
  for (const route of api.routes) {
    const spec = contractOf(route.handler);
    if (!spec) continue;
    const described = (route.handler as unknown as Record<symbol, { spec: { responses: Record<number, unknown> } }>)[uniqueSymbol]!;
    described.spec.responses = { [spec.status]: success(spec, schemas) };
  }
  const defaults = { responses: errorBodies };
  const doc = await generateSpecs(
    api,
    {
      includeEmptyPaths: true,
      defaultValidationErrorResponse: errorBodies[400],
      defaultOptions: { GET: defaults, POST: defaults, PUT: defaults, PATCH: defaults, DELETE: defaults },
      documentation: {
        info: {
          title: 'Doan Hoi Admin API',
          version: '1.0.0',
          description:
            'Errors are JSON { message } with the HTTP status; a 400 from validation adds issues [{ path, message }] and errors { field: [message] }; a 409 on a taken value adds errors for its field.',
        },
        servers: [{ url: '/api' }],
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
        security: [{ bearer: [] }],
      },
    },
    c,
  );
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, ...schemas } };
  return doc;
}

/** The document is built on the first request and kept: the routes do not change while the app runs. */
export function apiDocs(api: Hono<AppEnv>) {
  let doc: Promise<unknown> | undefined;
  return async (c: Context<AppEnv>) => c.json(await (doc ??= buildDocument(api, c)));
}
