import { auditListQuery } from '@doanhoi/shared';
import { Hono } from 'hono';
import { requireAuth, requirePermission } from '../lib/auth';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { auditService } from './service';

/**
 * Audit log API: who changed a role, a grant, a membership or a catalogue entry, and when.
 * system.view_logs is a system code, so only a global role or a super admin holds it.
 */
export function auditRoutes() {
  return new Hono<AppEnv>().get('/', requireAuth, requirePermission('system.view_logs'), validate('query', auditListQuery), (c) =>
    c.json(auditService(c.get('deps')).list(c.req.valid('query'))),
  );
}
