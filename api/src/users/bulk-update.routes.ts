import { userBulkUpdateSchema } from '@doanhoi/shared/schemas/users-bulk';
import { Hono } from 'hono';
import { clientIp } from '../lib/headers';
import { requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { bulkUpdateService } from './bulk-update';

/**
 * POST /users/bulk-update (issue 30 item 6). Seeing the users list is the route's gate; each field
 * then needs its own right where each row is (users.update, adding or ending memberships), as in
 * the single edits (bulk-update.ts). `dryRun: true` is the preview.
 */
export function bulkUpdateRoutes() {
  return new Hono<AppEnv>().post(
    '/bulk-update',
    requireAuth,
    requirePermission('users.access'),
    validate('json', userBulkUpdateSchema),
    (c) => c.json(bulkUpdateService(c.get('deps'), c.get('actor'), { ip: clientIp(c), lang: c.get('lang') }).run(c.req.valid('json'))),
  );
}
