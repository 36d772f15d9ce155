import {
  createDepartmentSchema,
  departmentListQuery,
  idParam,
  idsBody,
  updateDepartmentSchema,
  messageResponse,
  catalogueBulkDeleteResponse,
  departmentSchema,
  departmentListResponse,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { clientIp } from '../lib/headers';
import { requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { universityWide } from './access';
import { departmentsService } from './service';
import { ok, created } from '../lib/openapi/contract';

const service = (c: Context<AppEnv>) => departmentsService(c.get('deps'), c.get('actor'), { ip: clientIp(c), lang: c.get('lang') });

/** Departments API (000 §7). Reads need the code held somewhere, writes a global grant (access.ts). */
export function departmentsRoutes() {
  return (
    new Hono<AppEnv>()
      .get(
        '/',
        ok(departmentListResponse, 'One page of departments'),
        requireAuth,
        requirePermission('departments.access'),
        validate('query', departmentListQuery),
        async (c) => c.json(await service(c).list(c.req.valid('query'))),
      )
      .get(
        '/:id',
        ok(departmentSchema),
        requireAuth,
        requirePermission('departments.view_details'),
        validate('param', idParam),
        async (c) => c.json(await service(c).get(c.req.valid('param').id)),
      )
      .post(
        '/',
        created(departmentSchema, 'The created department'),
        requireAuth,
        requirePermission('departments.create', universityWide),
        validate('json', createDepartmentSchema),
        async (c) => c.json(await service(c).create(c.req.valid('json')), 201),
      )
      .patch(
        '/:id',
        ok(departmentSchema, 'The updated department'),
        requireAuth,
        requirePermission('departments.update', universityWide),
        validate('param', idParam),
        validate('json', updateDepartmentSchema),
        async (c) => c.json(await service(c).update(c.req.valid('param').id, c.req.valid('json'))),
      )
      // Before '/:id', so "bulk" is not read as an id.
      .delete(
        '/bulk',
        ok(catalogueBulkDeleteResponse),
        requireAuth,
        requirePermission('departments.delete', universityWide),
        validate('json', idsBody),
        async (c) => c.json(await service(c).bulkRemove(c.req.valid('json').ids)),
      )
      .delete(
        '/:id',
        ok(messageResponse, 'Deleted'),
        requireAuth,
        requirePermission('departments.delete', universityWide),
        validate('param', idParam),
        async (c) => {
          await service(c).remove(c.req.valid('param').id);
          return c.json({ message: 'Đã xóa khoa/phòng ban' });
        },
      )
  );
}
