import { Hono } from 'hono';
import type { AppEnv } from '../lib/context';
import { adjustmentsRoutes } from './adjustments.routes';
import { assignmentsRoutes } from './assignments.routes';
import { campaignsRoutes } from './campaigns.routes';
import { feeLevelsRoutes } from './fee-levels.routes';
import { paymentAdminRoutes, paymentRoutes } from './payments.routes';
import { payosConfigRoutes } from './payos-config.routes';

/**
 * The payments API of 001 §7, mounted at /api: /payment-campaigns (with /{id}/payos-config),
 * /payment-fee-levels, /payment/assignments, /payment/*, /payment-admin/*.
 */
export function paymentsRoutes() {
  return new Hono<AppEnv>()
    .route('/payment-campaigns', payosConfigRoutes())
    .route('/payment-campaigns', campaignsRoutes())
    .route('/payment-fee-levels', feeLevelsRoutes())
    .route('/payment/assignments', adjustmentsRoutes())
    .route('/payment/assignments', assignmentsRoutes())
    .route('/payment', paymentRoutes())
    .route('/payment-admin', paymentAdminRoutes());
}
