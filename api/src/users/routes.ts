import {
  createUserSchema,
  idParam,
  idsBody,
  updateUserSchema,
  userListQuery,
  messageResponse,
  userDetailSchema,
  userBulkDeleteResponse,
  userListResponse,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { clientIp } from '../lib/headers';
import { cachedJson } from '../lib/json';
import { requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { listUsers } from './listing';
import { usersService } from './service';
import { ok, created } from '../lib/openapi/contract';

/** The caller's users service: scoped to where the caller holds each code (service.ts). */
const service = (c: Context<AppEnv>) =>
  usersService(c.get('deps'), c.get('actor'), { ip: clientIp(c), lang: c.get('lang'), familyId: c.get('familyId') });

/**
 * Users API (000 §7). Each code must be held somewhere; the service narrows rows to the
 * organizations where it is held. /users/available-roles, /users/:id/roles, /users/:id/assign-role
 * and /users/:id/organizations are served by the roles and organizations routers.
 */
export function usersRoutes() {
  return (
    new Hono<AppEnv>()
      .get(
        '/',
        ok(userListResponse, 'One page of users'),
        requireAuth,
        requirePermission('users.access'),
        validate('query', userListQuery),
        async (c) => cachedJson(c, await listUsers(c.get('deps').db, c.get('actor'), c.req.valid('query'))),
      )
      .post(
        '/',
        created(userDetailSchema, 'The created user'),
        requireAuth,
        requirePermission('users.create'),
        validate('json', createUserSchema),
        async (c) => c.json(await service(c).create(c.req.valid('json')), 201),
      )
      // Before '/:id', so "bulk-delete" is not read as an id.
      .delete(
        '/bulk-delete',
        ok(userBulkDeleteResponse, 'How many users were deleted'),
        requireAuth,
        requirePermission('users.delete'),
        validate('json', idsBody),
        async (c) => c.json(await service(c).bulkRemove(c.req.valid('json').ids)),
      )
      .get('/:id', ok(userDetailSchema), requireAuth, requirePermission('users.view_details'), validate('param', idParam), async (c) =>
        c.json(await service(c).get(c.req.valid('param').id)),
      )
      .patch(
        '/:id',
        ok(userDetailSchema, 'The updated user'),
        requireAuth,
        requirePermission('users.update'),
        validate('param', idParam),
        validate('json', updateUserSchema),
        async (c) => c.json(await service(c).update(c.req.valid('param').id, c.req.valid('json'))),
      )
      .delete(
        '/:id',
        ok(messageResponse, 'Deleted'),
        requireAuth,
        requirePermission('users.delete'),
        validate('param', idParam),
        async (c) => {
          await service(c).remove(c.req.valid('param').id);
          return c.json({ message: 'Đã xóa người dùng' });
        },
      )
  );
}
