import { idParam } from '@doanhoi/shared';
import { userHistoryQuery, userHistoryResponse } from '@doanhoi/shared/schemas/user-history';
import { Hono } from 'hono';
import { requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { userHistory } from './history';
import { ok } from '../lib/openapi/contract';

/** GET /users/:id/history (issue 30 item 3): the read rule of GET /users/:id, then the timeline (history.ts). */
export function userHistoryRoutes() {
  return new Hono<AppEnv>().get(
    '/:id/history',
    ok(
      userHistoryResponse,
      "The member's timeline, newest first (page, limit, one kind): joined, left, removed, transfers, roles granted and taken, fees assigned, paid and adjusted. The read rule of GET /users/{id}; fee events only for campaigns whose payments the caller may see",
    ),
    requireAuth,
    requirePermission('users.view_details'),
    validate('param', idParam),
    validate('query', userHistoryQuery),
    async (c) => c.json(await userHistory(c.get('deps'), c.get('actor'), c.req.valid('param').id, c.req.valid('query'))),
  );
}
