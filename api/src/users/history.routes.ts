import { idParam } from '@doanhoi/shared';
import { userHistoryQuery } from '@doanhoi/shared/schemas/user-history';
import { Hono } from 'hono';
import { requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { userHistory } from './history';

/** GET /users/:id/history (issue 30 item 3): the read rule of GET /users/:id, then the timeline (history.ts). */
export function userHistoryRoutes() {
  return new Hono<AppEnv>().get(
    '/:id/history',
    requireAuth,
    requirePermission('users.view_details'),
    validate('param', idParam),
    validate('query', userHistoryQuery),
    (c) => c.json(userHistory(c.get('deps'), c.get('actor'), c.req.valid('param').id, c.req.valid('query'))),
  );
}
