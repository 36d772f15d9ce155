import {
  createRoleSchema,
  grantRolesSchema,
  idParam,
  idsBody,
  roleListQuery,
  updateRoleSchema,
  roleDeleteResponse,
  roleBulkDeleteResponse,
  roleDetailSchema,
  grantRolesResponse,
  seedDefaultRolesResponse,
  permissionSchema,
  roleListResponse,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { clientIp } from '../lib/headers';
import { requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { roleAssignmentsService } from './assignments.service';
import { rolesService } from './service';
import { ok, created } from '../lib/openapi/contract';
import { z } from 'zod';

const service = (c: Context<AppEnv>) => rolesService(c.get('deps'), c.get('actor'), { ip: clientIp(c) });
const assignments = (c: Context<AppEnv>) => roleAssignmentsService(c.get('deps'), c.get('actor'), { ip: clientIp(c) });

/**
 * Roles API (000 §7). permissions.* are system codes, so only global roles (or a super admin) pass;
 * granting checks users.roles.manage per target organization in the service.
 */
export function rolesRoutes() {
  return (
    new Hono<AppEnv>()
      .get(
        '/',
        ok(roleListResponse, 'One page of roles'),
        requireAuth,
        requirePermission('permissions.access'),
        validate('query', roleListQuery),
        async (c) => c.json(await service(c).list(c.req.valid('query'))),
      )
      // Fixed paths before '/:id'.
      .get(
        '/available-permissions',
        ok(z.array(permissionSchema), 'The permission catalogue'),
        requireAuth,
        requirePermission('permissions.access'),
        async (c) => c.json(await service(c).availablePermissions()),
      )
      .post(
        '/seed-defaults',
        ok(seedDefaultRolesResponse, 'Default roles created or brought up to date'),
        requireAuth,
        requirePermission('system.manage_settings'),
        async (c) => c.json(await service(c).seedDefaults()),
      )
      .post(
        '/grant-roles',
        ok(grantRolesResponse, "The user's role links replaced"),
        requireAuth,
        requirePermission('users.roles.manage'),
        validate('json', grantRolesSchema),
        async (c) => {
          const { userId, roleAssignments } = c.req.valid('json');
          return c.json(await assignments(c).replace(userId, roleAssignments));
        },
      )
      .get(
        '/:id',
        ok(roleDetailSchema, 'The role with its permissions'),
        requireAuth,
        requirePermission('permissions.access'),
        validate('param', idParam),
        async (c) => c.json(await service(c).get(c.req.valid('param').id)),
      )
      .post(
        '/',
        created(roleDetailSchema, 'The created role'),
        requireAuth,
        requirePermission('permissions.create'),
        validate('json', createRoleSchema),
        async (c) => c.json(await service(c).create(c.req.valid('json')), 201),
      )
      .put(
        '/:id',
        ok(roleDetailSchema, 'The updated role'),
        requireAuth,
        requirePermission('permissions.update'),
        validate('param', idParam),
        validate('json', updateRoleSchema),
        async (c) => c.json(await service(c).update(c.req.valid('param').id, c.req.valid('json'))),
      )
      .delete('/', ok(roleBulkDeleteResponse), requireAuth, requirePermission('permissions.delete'), validate('json', idsBody), async (c) =>
        c.json(await service(c).bulkRemove(c.req.valid('json').ids)),
      )
      .delete('/:id', ok(roleDeleteResponse), requireAuth, requirePermission('permissions.delete'), validate('param', idParam), async (c) =>
        c.json(await service(c).remove(c.req.valid('param').id)),
      )
  );
}
