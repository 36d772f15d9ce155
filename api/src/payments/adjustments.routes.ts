import {
  exemptAssignmentSchema,
  idParam,
  reduceAssignmentSchema,
  reversePaymentSchema,
  revokeAdjustmentSchema,
  paymentEnvelope,
  assignmentSchema,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { fromAssignmentParam, P } from '../access/payments';
import { exemptionsService } from './exemptions.service';
import { reqInfo } from './http';
import { reversalsService } from './reversals.service';
import { ok } from '../lib/openapi/contract';

const exemptions = (c: Context<AppEnv>) => exemptionsService(c.get('deps'), c.get('actor'), reqInfo(c));
const reversals = (c: Context<AppEnv>) => reversalsService(c.get('deps'), c.get('actor'), reqInfo(c));

/**
 * /payment/assignments/{id}/… (issue 15.3): exempt, reduce, undo either (payment-campaigns.exempt)
 * and reverse a manual payment (payment-campaigns.reverse_payment), in the campaign's organization.
 */
export function adjustmentsRoutes() {
  return new Hono<AppEnv>()
    .post(
      '/:id/exempt',
      ok(paymentEnvelope(assignmentSchema), 'The fee, now exempt (amount 0)'),
      requireAuth,
      requirePermission(P.exempt, fromAssignmentParam),
      validate('param', idParam),
      validate('json', exemptAssignmentSchema),
      async (c) =>
        c.json({
          success: true,
          data: await exemptions(c).exempt(c.req.valid('param').id, c.req.valid('json')),
          message: 'Đã miễn khoản phí',
        }),
    )
    .post(
      '/:id/reduce',
      ok(paymentEnvelope(assignmentSchema), 'The fee at its reduced amount'),
      requireAuth,
      requirePermission(P.exempt, fromAssignmentParam),
      validate('param', idParam),
      validate('json', reduceAssignmentSchema),
      async (c) =>
        c.json({
          success: true,
          data: await exemptions(c).reduce(c.req.valid('param').id, c.req.valid('json')),
          message: 'Đã giảm khoản phí',
        }),
    )
    .post(
      '/:id/revoke-adjustment',
      ok(paymentEnvelope(assignmentSchema), 'The fee back at its original amount'),
      requireAuth,
      requirePermission(P.exempt, fromAssignmentParam),
      validate('param', idParam),
      validate('json', revokeAdjustmentSchema),
      async (c) =>
        c.json({
          success: true,
          data: await exemptions(c).revoke(c.req.valid('param').id, c.req.valid('json')),
          message: 'Đã hủy miễn/giảm phí',
        }),
    )
    .post(
      '/:id/reverse-payment',
      ok(paymentEnvelope(assignmentSchema), 'The fee unpaid again; the payment stays, with its reversing entry'),
      requireAuth,
      requirePermission(P.reverse, fromAssignmentParam),
      validate('param', idParam),
      validate('json', reversePaymentSchema),
      async (c) =>
        c.json({
          success: true,
          data: await reversals(c).reverse(c.req.valid('param').id, c.req.valid('json')),
          message: 'Đã hủy xác nhận thanh toán',
        }),
    );
}
