import { Hono } from 'hono';
import type { AppEnv } from '../lib/context';

/** users API (000 §7); filled in by step 2. */
export function usersRoutes() {
  return new Hono<AppEnv>();
}
