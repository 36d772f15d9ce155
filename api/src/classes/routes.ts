import {
  classListQuery,
  createClassSchema,
  idParam,
  idsBody,
  updateClassSchema,
  messageResponse,
  catalogueBulkDeleteResponse,
  classDetailSchema,
  classListResponse,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { universityWide } from '../departments/access';
import { clientIp } from '../lib/headers';
import { requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { classesService } from './service';
import { ok, created } from '../lib/openapi/contract';

const service = (c: Context<AppEnv>) => classesService(c.get('deps'), c.get('actor'), { ip: clientIp(c), lang: c.get('lang') });

/** Classes API (000 §7). Reads need the code held somewhere, writes a global grant (departments/access.ts). */
export function classesRoutes() {
  return (
    new Hono<AppEnv>()
      .get(
        '/',
        ok(classListResponse, 'One page of classes'),
        requireAuth,
        requirePermission('classes.access'),
        validate('query', classListQuery),
        async (c) => c.json(await service(c).list(c.req.valid('query'))),
      )
      .get(
        '/:id',
        ok(classDetailSchema, 'The class with its students'),
        requireAuth,
        requirePermission('classes.view_details'),
        validate('param', idParam),
        async (c) => c.json(await service(c).get(c.req.valid('param').id)),
      )
      .post(
        '/',
        created(classDetailSchema, 'The created class'),
        requireAuth,
        requirePermission('classes.create', universityWide),
        validate('json', createClassSchema),
        async (c) => c.json(await service(c).create(c.req.valid('json')), 201),
      )
      .patch(
        '/:id',
        ok(classDetailSchema, 'The updated class'),
        requireAuth,
        requirePermission('classes.update', universityWide),
        validate('param', idParam),
        validate('json', updateClassSchema),
        async (c) => c.json(await service(c).update(c.req.valid('param').id, c.req.valid('json'))),
      )
      // Before '/:id', so "bulk" is not read as an id.
      .delete(
        '/bulk',
        ok(catalogueBulkDeleteResponse),
        requireAuth,
        requirePermission('classes.delete', universityWide),
        validate('json', idsBody),
        async (c) => c.json(await service(c).bulkRemove(c.req.valid('json').ids)),
      )
      .delete(
        '/:id',
        ok(messageResponse, 'Deleted'),
        requireAuth,
        requirePermission('classes.delete', universityWide),
        validate('param', idParam),
        async (c) => {
          await service(c).remove(c.req.valid('param').id);
          return c.json({ message: 'Đã xóa lớp' });
        },
      )
  );
}
