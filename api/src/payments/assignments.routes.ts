import {
  assignmentListQuery,
  assignmentStatisticsQuery,
  bulkAssignmentSchema,
  checkOverdueQuery,
  createAssignmentSchema,
  idParam,
  markPaidSchema,
  myAssignmentsQuery,
  updateAssignmentSchema,
  paymentMessage,
  paymentEnvelope,
  assignmentSchema,
  assignmentPageSchema,
  bulkAssignmentResultSchema,
  overdueResultSchema,
  myAssignmentsSchema,
  campaignStatisticsSchema,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { fromParam, requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { fromAssignmentParam, fromBodyCampaign, fromCampaignQuery, P, requireAnyPermission } from '../access/payments';
import { assignmentsQueries } from './assignments.query';
import { assignmentsService } from './assignments.service';
import { reqInfo } from './http';
import { checkOverdueFor } from './overdue';
import { campaignStatistics } from './statistics';
import { ok, created } from '../lib/openapi/contract';

const queries = (c: Context<AppEnv>) => assignmentsQueries(c.get('deps'), c.get('actor'));
const service = (c: Context<AppEnv>) => assignmentsService(c.get('deps'), c.get('actor'), reqInfo(c));

/**
 * /payment/assignments (001 §7). Reads need read, writes manage_assignments, in the campaign's
 * organization; my-assignments needs only sign-in (every member sees and pays their own fees).
 */
export function assignmentsRoutes() {
  return (
    new Hono<AppEnv>()
      // Fixed paths before '/:id'.
      .get(
        '/statistics',
        ok(paymentEnvelope(campaignStatisticsSchema)),
        requireAuth,
        requireAnyPermission([P.read, P.reports], fromCampaignQuery()),
        validate('query', assignmentStatisticsQuery),
        async (c) => c.json({ success: true, data: await campaignStatistics(c.get('deps').db, c.req.valid('query').campaignId) }),
      )
      .get(
        '/my-assignments',
        ok(paymentEnvelope(myAssignmentsSchema), "The caller's own fees"),
        requireAuth,
        validate('query', myAssignmentsQuery),
        async (c) => c.json({ success: true, data: await queries(c).mine(c.req.valid('query')) }),
      )
      .post(
        '/check-overdue',
        ok(overdueResultSchema),
        requireAuth,
        requirePermission(P.manage),
        validate('query', checkOverdueQuery),
        async (c) => {
          const r = await checkOverdueFor(c.get('deps').db, c.get('actor'), reqInfo(c).ip, c.req.valid('query').campaignId);
          return c.json({
            success: true,
            updatedCount: r.updatedCount,
            data: r,
            message: `Đã cập nhật ${r.updatedCount} khoản phí quá hạn`,
          });
        },
      )
      // Each entry's campaign is checked by the service (entries may name several campaigns).
      .post(
        '/bulk',
        created(paymentEnvelope(bulkAssignmentResultSchema)),
        requireAuth,
        requirePermission(P.manage),
        validate('json', bulkAssignmentSchema),
        async (c) => {
          const data = await service(c).bulk(c.req.valid('json').assignments);
          return c.json({ success: true, data, message: `Đã phân công ${data.createdCount} thành viên` }, 201);
        },
      )
      .get(
        '/organization/:id',
        ok(paymentEnvelope(assignmentPageSchema)),
        requireAuth,
        requirePermission(P.read, fromParam()),
        validate('param', idParam),
        validate('query', assignmentListQuery),
        async (c) => c.json({ success: true, data: await queries(c).byOrganization(c.req.valid('param').id, c.req.valid('query')) }),
      )
      .get(
        '/',
        ok(paymentEnvelope(assignmentPageSchema), 'One page of fees'),
        requireAuth,
        requirePermission(P.read),
        validate('query', assignmentListQuery),
        async (c) => c.json({ success: true, data: await queries(c).list(c.req.valid('query')) }),
      )
      .post(
        '/',
        created(paymentEnvelope(assignmentSchema)),
        requireAuth,
        requirePermission(P.manage, fromBodyCampaign),
        validate('json', createAssignmentSchema),
        async (c) => c.json({ success: true, data: await service(c).create(c.req.valid('json')), message: 'Đã phân công thành viên' }, 201),
      )
      .patch(
        '/:id/mark-paid',
        ok(paymentEnvelope(assignmentSchema)),
        requireAuth,
        requirePermission(P.manage, fromAssignmentParam),
        validate('param', idParam),
        validate('json', markPaidSchema),
        async (c) =>
          c.json({
            success: true,
            data: await service(c).markPaid(c.req.valid('param').id, c.req.valid('json')),
            message: 'Đã xác nhận thanh toán',
          }),
      )
      .patch(
        '/:id/mark-overdue',
        ok(paymentEnvelope(assignmentSchema)),
        requireAuth,
        requirePermission(P.manage, fromAssignmentParam),
        validate('param', idParam),
        async (c) => c.json({ success: true, data: await service(c).markOverdue(c.req.valid('param').id), message: 'Đã đánh dấu quá hạn' }),
      )
      // The member's own assignment, or one the caller may read (checked by the query).
      .get('/:id', ok(paymentEnvelope(assignmentSchema)), requireAuth, validate('param', idParam), async (c) =>
        c.json({ success: true, data: await queries(c).get(c.req.valid('param').id) }),
      )
      .on(
        ['PUT', 'PATCH'],
        '/:id',
        ok(paymentEnvelope(assignmentSchema)),
        requireAuth,
        requirePermission(P.manage, fromAssignmentParam),
        validate('param', idParam),
        validate('json', updateAssignmentSchema),
        async (c) =>
          c.json({
            success: true,
            data: await service(c).update(c.req.valid('param').id, c.req.valid('json')),
            message: 'Đã cập nhật phân công',
          }),
      )
      .delete(
        '/:id',
        ok(paymentMessage, 'Deleted'),
        requireAuth,
        requirePermission(P.manage, fromAssignmentParam),
        validate('param', idParam),
        async (c) => {
          await service(c).remove(c.req.valid('param').id);
          return c.json({ success: true, message: 'Đã xóa phân công' });
        },
      )
  );
}
