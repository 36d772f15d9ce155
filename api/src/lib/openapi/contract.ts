/**
 * The success answer of each /api route, keyed by `METHOD path` exactly as Hono's route table
 * spells it (below /api). /api/docs takes its response schemas from here, openapi.test.ts fails
 * when a mounted route has no entry (or an entry no route), and the test harness checks every 2xx
 * JSON body the API tests receive against the entry's schema, so the document cannot drift.
 */
import type { z } from 'zod';

export interface ResponseSpec {
  status: number;
  description: string;
  /** The JSON body; absent for a file download or a redirect. */
  schema?: z.ZodType;
  /** Not JSON: the body's media type (a file), or none at all (a redirect). */
  mediaType?: string;
}

export type Contract = Record<string, ResponseSpec>;

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const ok = (schema: z.ZodType, description = 'OK'): ResponseSpec => ({ status: 200, description, schema });
export const created = (schema: z.ZodType, description = 'Created'): ResponseSpec => ({ status: 201, description, schema });
export const xlsx = (description: string): ResponseSpec => ({ status: 200, description, mediaType: XLSX });
export const redirect = (description: string): ResponseSpec => ({ status: 302, description });
