import { Hono } from 'hono';
import type { AppEnv } from '../lib/context';

/** audit API (000 §7); filled in by step 2. */
export function auditRoutes() {
  return new Hono<AppEnv>();
}
