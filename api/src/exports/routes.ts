/** POST /export/users, /export/organizations/:id/members, /export/payment-assignments/:campaignId (000 §7, 001 §7). */
import { exportRequestSchema } from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { auditContext } from '../audit/writer';
import { fromParam, requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { rateLimit } from '../lib/rate-limit';
import { validate } from '../lib/validate';
import { exportRunner } from './offload';
import { campaignOrganization } from './service';
import { xlsx } from '../lib/openapi/contract';

const idParam = z.object({ id: z.coerce.number().int().positive() });
const campaignParam = z.object({ campaignId: z.coerce.number().int().positive() });

const service = (c: Context<AppEnv>) => exportRunner(c.get('deps'), c.get('actor'), auditContext(c).ip);

export function exportRoutes() {
  const limited = rateLimit('export');
  return new Hono<AppEnv>()
    .post(
      '/users',
      xlsx('The users the caller sees, with the chosen columns'),
      requireAuth,
      requirePermission('users.export'),
      limited,
      validate('json', exportRequestSchema),
      (c) => service(c).users(c.req.valid('json')),
    )
    .post(
      '/organizations/:id/members',
      xlsx("The organization's members"),
      requireAuth,
      validate('param', idParam),
      requirePermission('organizations.export', fromParam()),
      limited,
      validate('json', exportRequestSchema),
      (c) => service(c).members(c.req.valid('param').id, c.req.valid('json')),
    )
    .post(
      '/payment-assignments/:campaignId',
      xlsx("The campaign's fees"),
      requireAuth,
      validate('param', campaignParam),
      requirePermission('payment-campaigns.export', campaignOrganization),
      limited,
      validate('json', exportRequestSchema),
      (c) => service(c).assignments(c.req.valid('param').campaignId, c.req.valid('json')),
    );
}
