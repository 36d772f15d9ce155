import { Hono } from 'hono';
import type { AppEnv } from '../lib/context';

/** organizations API (000 §7); filled in by step 2. */
export function organizationsRoutes() {
  return new Hono<AppEnv>();
}
