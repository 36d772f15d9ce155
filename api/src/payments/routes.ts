import { Hono } from 'hono';
import type { AppEnv } from '../lib/context';

/**
 * The payments API of 001 §7, mounted at /api: /payment-campaigns, /payment-fee-levels,
 * /payment/assignments, /payment/*, /payment-admin/*. Filled in by step 4.
 */
export function paymentsRoutes() {
  return new Hono<AppEnv>();
}
