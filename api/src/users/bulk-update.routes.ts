import { userBulkUpdateSchema, userBulkUpdateResponse } from '@doanhoi/shared/schemas/users-bulk';
import { Hono } from 'hono';
import { clientIp } from '../lib/headers';
import { requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { bulkUpdateService } from './bulk-update';
import { ok } from '../lib/openapi/contract';

/**
 * POST /users/bulk-update (issue 30 item 6). Seeing the users list is the route's gate; each field
 * then needs its own right where each row is (users.update, adding or ending memberships), as in
 * the single edits (bulk-update.ts). `dryRun: true` is the preview.
 */
export function bulkUpdateRoutes() {
  return new Hono<AppEnv>().post(
    '/bulk-update',
    ok(
      userBulkUpdateResponse,
      "With dryRun, the preview: how many match, how many would change, a sample and the rows that refuse it. Otherwise the change was made; a row outside the caller's rights refuses it all (403, or 409 for the self or a non-member; refusals list the codes), over BULK_UPDATE_MAX_USERS 413",
    ),
    requireAuth,
    requirePermission('users.access'),
    validate('json', userBulkUpdateSchema),
    async (c) =>
      c.json(await bulkUpdateService(c.get('deps'), c.get('actor'), { ip: clientIp(c), lang: c.get('lang') }).run(c.req.valid('json'))),
  );
}
