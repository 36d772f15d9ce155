import { Hono } from 'hono';
import type { AppEnv } from '../lib/context';

/** roles API (000 §7); filled in by step 2. */
export function rolesRoutes() {
  return new Hono<AppEnv>();
}
