import {
  campaignListQuery,
  createCampaignSchema,
  idParam,
  updateCampaignSchema,
  messageResponse,
  campaignSchema,
  campaignStatisticsSchema,
  campaignListResponse,
  campaignsOfOrganizationResponse,
  paymentEnvelope,
  campaignOrganizationOptionSchema,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { fromParam, requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { fromBodyOrganization, fromCampaignParam, P, requireAnyPermission } from '../access/payments';
import { campaignsService } from './campaigns.service';
import { reqInfo } from './http';
import { campaignStatistics } from './statistics';
import { ok, created } from '../lib/openapi/contract';
import { z } from 'zod';

const service = (c: Context<AppEnv>) => campaignsService(c.get('deps'), c.get('actor'), reqInfo(c));
const inCampaign = fromCampaignParam();

/** /payment-campaigns (001 §7). Codes are checked in the campaign's organization (001 §6). */
export function campaignsRoutes() {
  return (
    new Hono<AppEnv>()
      // Fixed paths before '/:id'.
      .get(
        '/accessible-organizations',
        ok(paymentEnvelope(z.array(campaignOrganizationOptionSchema)), 'Where the caller may create a campaign'),
        requireAuth,
        requirePermission(P.create),
        async (c) => c.json({ success: true, data: await service(c).accessibleOrganizations() }),
      )
      .get(
        '/organization/:id',
        ok(campaignsOfOrganizationResponse),
        requireAuth,
        requirePermission(P.access, fromParam()),
        validate('param', idParam),
        async (c) => c.json(await service(c).byOrganization(c.req.valid('param').id)),
      )
      .get(
        '/',
        ok(campaignListResponse, 'One page of campaigns'),
        requireAuth,
        requirePermission(P.access),
        validate('query', campaignListQuery),
        async (c) => c.json(await service(c).list(c.req.valid('query'))),
      )
      .post(
        '/',
        created(campaignSchema, 'The created campaign (DRAFT)'),
        requireAuth,
        requirePermission(P.create, fromBodyOrganization),
        validate('json', createCampaignSchema),
        async (c) => c.json(await service(c).create(c.req.valid('json')), 201),
      )
      .get(
        '/:id/statistics',
        ok(campaignStatisticsSchema),
        requireAuth,
        requireAnyPermission([P.read, P.reports], inCampaign),
        validate('param', idParam),
        async (c) => c.json(await campaignStatistics(c.get('deps').db, c.req.valid('param').id)),
      )
      .post(
        '/:id/activate',
        ok(campaignSchema),
        requireAuth,
        requirePermission(P.update, inCampaign),
        validate('param', idParam),
        async (c) => c.json(await service(c).transition(c.req.valid('param').id, 'activate')),
      )
      .post(
        '/:id/complete',
        ok(campaignSchema),
        requireAuth,
        requirePermission(P.update, inCampaign),
        validate('param', idParam),
        async (c) => c.json(await service(c).transition(c.req.valid('param').id, 'complete')),
      )
      .post(
        '/:id/cancel',
        ok(campaignSchema),
        requireAuth,
        requirePermission(P.update, inCampaign),
        validate('param', idParam),
        async (c) => c.json(await service(c).transition(c.req.valid('param').id, 'cancel')),
      )
      .get('/:id', ok(campaignSchema), requireAuth, requirePermission(P.read, inCampaign), validate('param', idParam), async (c) =>
        c.json(await service(c).get(c.req.valid('param').id)),
      )
      .patch(
        '/:id',
        ok(campaignSchema, 'The updated campaign'),
        requireAuth,
        requirePermission(P.update, inCampaign),
        validate('param', idParam),
        validate('json', updateCampaignSchema),
        async (c) => c.json(await service(c).update(c.req.valid('param').id, c.req.valid('json'))),
      )
      .delete(
        '/:id',
        ok(messageResponse, 'Deleted'),
        requireAuth,
        requirePermission(P.delete, inCampaign),
        validate('param', idParam),
        async (c) => {
          await service(c).remove(c.req.valid('param').id);
          return c.json({ message: 'Đã xóa đợt thu' });
        },
      )
  );
}
