import { Hono } from 'hono';
import type { AppEnv } from '../lib/context';

/** Local payOS-compatible sandbox mounted at /sandbox/payos when PAYOS_BASE_URL is 'sandbox'; filled in by step 4. */
export function payosSandboxRoutes() {
  return new Hono<AppEnv>();
}
