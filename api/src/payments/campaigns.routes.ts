import { campaignListQuery, createCampaignSchema, idParam, updateCampaignSchema } from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { fromParam, requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { fromBodyOrganization, fromCampaignParam, P, requireAnyPermission } from '../access/payments';
import { campaignsService } from './campaigns.service';
import { reqInfo } from './http';
import { campaignStatistics } from './statistics';

const service = (c: Context<AppEnv>) => campaignsService(c.get('deps'), c.get('actor'), reqInfo(c));
const inCampaign = fromCampaignParam();

/** /payment-campaigns (001 §7). Codes are checked in the campaign's organization (001 §6). */
export function campaignsRoutes() {
  return (
    new Hono<AppEnv>()
      // Fixed paths before '/:id'.
      .get('/accessible-organizations', requireAuth, requirePermission(P.create), (c) =>
        c.json({ success: true, data: service(c).accessibleOrganizations() }),
      )
      .get('/organization/:id', requireAuth, requirePermission(P.access, fromParam()), validate('param', idParam), (c) =>
        c.json(service(c).byOrganization(c.req.valid('param').id)),
      )
      .get('/', requireAuth, requirePermission(P.access), validate('query', campaignListQuery), (c) =>
        c.json(service(c).list(c.req.valid('query'))),
      )
      .post('/', requireAuth, requirePermission(P.create, fromBodyOrganization), validate('json', createCampaignSchema), (c) =>
        c.json(service(c).create(c.req.valid('json')), 201),
      )
      .get('/:id/statistics', requireAuth, requireAnyPermission([P.read, P.reports], inCampaign), validate('param', idParam), (c) =>
        c.json(campaignStatistics(c.get('deps').db, c.req.valid('param').id)),
      )
      .post('/:id/activate', requireAuth, requirePermission(P.update, inCampaign), validate('param', idParam), async (c) =>
        c.json(await service(c).transition(c.req.valid('param').id, 'activate')),
      )
      .post('/:id/complete', requireAuth, requirePermission(P.update, inCampaign), validate('param', idParam), async (c) =>
        c.json(await service(c).transition(c.req.valid('param').id, 'complete')),
      )
      .post('/:id/cancel', requireAuth, requirePermission(P.update, inCampaign), validate('param', idParam), async (c) =>
        c.json(await service(c).transition(c.req.valid('param').id, 'cancel')),
      )
      .get('/:id', requireAuth, requirePermission(P.read, inCampaign), validate('param', idParam), (c) =>
        c.json(service(c).get(c.req.valid('param').id)),
      )
      .patch(
        '/:id',
        requireAuth,
        requirePermission(P.update, inCampaign),
        validate('param', idParam),
        validate('json', updateCampaignSchema),
        (c) => c.json(service(c).update(c.req.valid('param').id, c.req.valid('json'))),
      )
      .delete('/:id', requireAuth, requirePermission(P.delete, inCampaign), validate('param', idParam), (c) => {
        service(c).remove(c.req.valid('param').id);
        return c.json({ message: 'Đã xóa đợt thu' });
      })
  );
}
