import {
  createTransferSchema,
  idParam,
  transferCandidateQuery,
  refuseTransferSchema,
  transferListQuery,
  transferUnitsQuery,
  transferSchema,
  transferCandidateResponse,
  transferUnitsResponse,
  transferListResponse,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { auditContext } from '../audit/writer';
import { requireAuth } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { transfersService } from './service';
import { ok, created } from '../lib/openapi/contract';
import { z } from 'zod';

/**
 * /api/transfers (issue 30 item 1). Any signed-in caller reaches the routes: a member asks for
 * themself from the portal, and who may ask, decide or cancel depends on the units of each
 * request, so the service checks the codes in those units (transfers/access.ts).
 */
export function transfersRoutes() {
  const svc = (c: Context<AppEnv>) => transfersService(c.get('deps'), c.get('actor'), auditContext(c).ip);
  return new Hono<AppEnv>()
    .use('*', requireAuth)
    .get(
      '/',
      ok(transferListResponse, 'Requests from or to the units the caller sees (and their own), newest first'),
      validate('query', transferListQuery),
      async (c) => c.json(await svc(c).list(c.req.valid('query'))),
    )
    .get(
      '/units',
      ok(transferUnitsResponse, 'Units a member may ask to move to, by name or code'),
      validate('query', transferUnitsQuery),
      async (c) => c.json(await svc(c).units(c.req.valid('query'))),
    )
    .get(
      '/mine',
      ok(
        z.object({ units: transferUnitsResponse, transfers: z.array(transferSchema) }),
        "The caller's own units and transfer requests (the portal)",
      ),
      async (c) => c.json(await svc(c).mine()),
    )
    .get(
      '/candidate',
      ok(transferCandidateResponse, 'A member by code and their current units, for a caller who may ask on either side'),
      validate('query', transferCandidateQuery),
      async (c) => {
        const q = c.req.valid('query');
        return c.json(await svc(c).candidate(q.code, q.toOrganizationId));
      },
    )
    .post(
      '/',
      created(transferSchema, 'The request, PENDING; 409 while another request for the member is pending'),
      validate('json', createTransferSchema),
      async (c) => c.json(await svc(c).create(c.req.valid('json')), 201),
    )
    .get('/:id', ok(transferSchema), validate('param', idParam), async (c) => c.json(await svc(c).get(c.req.valid('param').id)))
    .post(
      '/:id/accept',
      ok(transferSchema, 'ACCEPTED: the old memberships ended on the effective date (transferred), the new ones started'),
      validate('param', idParam),
      async (c) => c.json(await svc(c).accept(c.req.valid('param').id)),
    )
    .post(
      '/:id/refuse',
      ok(transferSchema, 'REFUSED with the reason'),
      validate('param', idParam),
      validate('json', refuseTransferSchema),
      async (c) => c.json(await svc(c).refuse(c.req.valid('param').id, c.req.valid('json').reason)),
    )
    .post('/:id/cancel', ok(transferSchema, 'CANCELLED by the requesting side'), validate('param', idParam), async (c) =>
      c.json(await svc(c).cancel(c.req.valid('param').id)),
    );
}
