import { Hono } from 'hono';
import type { AppEnv } from '../lib/context';

/** departments API (000 §7); filled in by step 2. */
export function departmentsRoutes() {
  return new Hono<AppEnv>();
}
