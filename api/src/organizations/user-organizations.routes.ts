import { idParam, setUserOrganizationsSchema, userOrganizationsResponse } from '@doanhoi/shared';
import { Hono } from 'hono';
import { auditContext } from '../audit/writer';
import { requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { membershipService } from './membership';
import { ok } from '../lib/openapi/contract';

/** PUT /users/:id/organizations (000 §4): each organization added or removed is checked in the service. */
export function userOrganizationsRoutes() {
  return new Hono<AppEnv>().put(
    '/:id/organizations',
    ok(userOrganizationsResponse, "The user's memberships replaced"),
    requireAuth,
    requirePermission('users.update'),
    validate('param', idParam),
    validate('json', setUserOrganizationsSchema),
    async (c) =>
      c.json(
        await membershipService(c.get('deps'), c.get('actor'), auditContext(c).ip).setUserOrganizations(
          c.req.valid('param').id,
          c.req.valid('json').organizationIds,
        ),
      ),
  );
}
