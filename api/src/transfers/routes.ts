import {
  createTransferSchema,
  idParam,
  transferCandidateQuery,
  refuseTransferSchema,
  transferListQuery,
  transferUnitsQuery,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { auditContext } from '../audit/writer';
import { requireAuth } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { transfersService } from './service';

/**
 * /api/transfers (issue 30 item 1). Any signed-in caller reaches the routes: a member asks for
 * themself from the portal, and who may ask, decide or cancel depends on the units of each
 * request, so the service checks the codes in those units (transfers/access.ts).
 */
export function transfersRoutes() {
  const svc = (c: Context<AppEnv>) => transfersService(c.get('deps'), c.get('actor'), auditContext(c).ip);
  return new Hono<AppEnv>()
    .use('*', requireAuth)
    .get('/', validate('query', transferListQuery), (c) => c.json(svc(c).list(c.req.valid('query'))))
    .get('/units', validate('query', transferUnitsQuery), (c) => c.json(svc(c).units(c.req.valid('query'))))
    .get('/mine', (c) => c.json(svc(c).mine()))
    .get('/candidate', validate('query', transferCandidateQuery), (c) => {
      const q = c.req.valid('query');
      return c.json(svc(c).candidate(q.code, q.toOrganizationId));
    })
    .post('/', validate('json', createTransferSchema), (c) => c.json(svc(c).create(c.req.valid('json')), 201))
    .get('/:id', validate('param', idParam), (c) => c.json(svc(c).get(c.req.valid('param').id)))
    .post('/:id/accept', validate('param', idParam), (c) => c.json(svc(c).accept(c.req.valid('param').id)))
    .post('/:id/refuse', validate('param', idParam), validate('json', refuseTransferSchema), (c) =>
      c.json(svc(c).refuse(c.req.valid('param').id, c.req.valid('json').reason)),
    )
    .post('/:id/cancel', validate('param', idParam), (c) => c.json(svc(c).cancel(c.req.valid('param').id)));
}
