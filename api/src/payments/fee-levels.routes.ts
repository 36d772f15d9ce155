import {
  createFeeLevelSchema,
  idParam,
  updateFeeLevelSchema,
  messageResponse,
  feeLevelSchema,
  feeLevelsOfCampaignResponse,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { fromBodyCampaign, fromCampaignParam, fromFeeLevelParam, P } from '../access/payments';
import { feeLevelsService } from './fee-levels.service';
import { reqInfo } from './http';
import { ok, created } from '../lib/openapi/contract';

const service = (c: Context<AppEnv>) => feeLevelsService(c.get('deps'), c.get('actor'), reqInfo(c));

/** /payment-fee-levels (001 §7): reads need read, writes need update, in the campaign's organization. */
export function feeLevelsRoutes() {
  return new Hono<AppEnv>()
    .get(
      '/campaign/:id',
      ok(feeLevelsOfCampaignResponse),
      requireAuth,
      requirePermission(P.read, fromCampaignParam()),
      validate('param', idParam),
      async (c) => c.json(await service(c).listByCampaign(c.req.valid('param').id)),
    )
    .post(
      '/',
      created(feeLevelSchema, 'The created fee level'),
      requireAuth,
      requirePermission(P.update, fromBodyCampaign),
      validate('json', createFeeLevelSchema),
      async (c) => c.json(await service(c).create(c.req.valid('json')), 201),
    )
    .post(
      '/:id/set-default',
      ok(feeLevelSchema),
      requireAuth,
      requirePermission(P.update, fromFeeLevelParam),
      validate('param', idParam),
      async (c) => c.json(await service(c).setDefault(c.req.valid('param').id)),
    )
    .get('/:id', ok(feeLevelSchema), requireAuth, requirePermission(P.read, fromFeeLevelParam), validate('param', idParam), async (c) =>
      c.json(await service(c).get(c.req.valid('param').id)),
    )
    .patch(
      '/:id',
      ok(feeLevelSchema, 'The updated fee level'),
      requireAuth,
      requirePermission(P.update, fromFeeLevelParam),
      validate('param', idParam),
      validate('json', updateFeeLevelSchema),
      async (c) => c.json(await service(c).update(c.req.valid('param').id, c.req.valid('json'))),
    )
    .delete(
      '/:id',
      ok(messageResponse, 'Deleted'),
      requireAuth,
      requirePermission(P.update, fromFeeLevelParam),
      validate('param', idParam),
      async (c) => {
        await service(c).remove(c.req.valid('param').id);
        return c.json({ message: 'Đã xóa mức phí' });
      },
    );
}
