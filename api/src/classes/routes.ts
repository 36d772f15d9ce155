import { Hono } from 'hono';
import type { AppEnv } from '../lib/context';

/** classes API (000 §7); filled in by step 2. */
export function classesRoutes() {
  return new Hono<AppEnv>();
}
