import {
  assignRoleSchema,
  idParam,
  userRoleAssignmentsBody,
  userRolesQuery,
  roleAssignmentLinkSchema,
  grantRolesResponse,
  availableRoleSchema,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { clientIp } from '../lib/headers';
import { requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { requireAnyPermission } from './access';
import { roleAssignmentsService } from './assignments.service';
import { created, ok } from '../lib/openapi/contract';
import { z } from 'zod';

const service = (c: Context<AppEnv>) => roleAssignmentsService(c.get('deps'), c.get('actor'), { ip: clientIp(c) });

/**
 * A user's role links (000 §7): /users/available-roles, /users/{id}/roles, /users/{id}/assign-role.
 * Mounted on /users before the users router, so only these paths are defined here (no catch-all
 * middleware). users.roles.manage must be held somewhere; the service checks each organization.
 */
export function userRolesRoutes() {
  return new Hono<AppEnv>()
    .get(
      '/available-roles',
      ok(z.array(availableRoleSchema), 'Roles the caller may grant, and where'),
      requireAuth,
      requirePermission('users.roles.manage'),
      async (c) => c.json(await service(c).availableRoles()),
    )
    .get(
      '/:id/roles',
      ok(z.array(roleAssignmentLinkSchema), "The user's role links"),
      requireAuth,
      requireAnyPermission(['users.view_details', 'users.roles.manage']),
      validate('param', idParam),
      validate('query', userRolesQuery),
      async (c) => c.json(await service(c).listForUser(c.req.valid('param').id, c.req.valid('query').organizationId)),
    )
    .post(
      '/:id/roles',
      ok(grantRolesResponse, "The user's role links replaced"),
      requireAuth,
      requirePermission('users.roles.manage'),
      validate('param', idParam),
      validate('json', userRoleAssignmentsBody),
      async (c) => c.json(await service(c).replace(c.req.valid('param').id, c.req.valid('json').roleAssignments)),
    )
    .post(
      '/:id/assign-role',
      created(roleAssignmentLinkSchema, 'The new role link (200 when it already existed)'),
      requireAuth,
      requirePermission('users.roles.manage'),
      validate('param', idParam),
      validate('json', assignRoleSchema),
      async (c) => {
        const { roleId, organizationId } = c.req.valid('json');
        const { link, created } = await service(c).assign(c.req.valid('param').id, roleId, organizationId);
        return c.json(link, created ? 201 : 200);
      },
    );
}
