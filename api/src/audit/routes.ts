import { auditExportQuery, auditListQuery, holdsAnywhere, auditListResponse } from '@doanhoi/shared';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { audit, auditContext } from './writer';
import { requireAuth } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { forbidden } from '../lib/errors';
import { rateLimit } from '../lib/rate-limit';
import { validate } from '../lib/validate';
import { exportFileName, EXPORT_PAGE, streamXlsx } from '../lib/xlsx-writer';
import { AUDIT_EXPORT_FIELDS } from './fields';
import { AUDIT_GLOBAL_CODE, AUDIT_ORG_CODE, auditService } from './service';
import { xlsx, ok } from '../lib/openapi/contract';
import { withTransaction } from '../db/engine';

/** A global system.view_logs grant, or audit.access somewhere (the service then scopes the rows). */
const requireAuditReader: MiddlewareHandler<AppEnv> = async (c, next) => {
  const roles = c.get('actor').roles;
  if (!holdsAnywhere(roles, AUDIT_GLOBAL_CODE) && !holdsAnywhere(roles, AUDIT_ORG_CODE)) forbidden();
  await next();
};

const service = (c: Context<AppEnv>) => auditService(c.get('deps'), c.get('actor'));

/** Audit log API: who changed a role, a grant, a membership, a campaign or a catalogue entry, and when. */
export function auditRoutes() {
  return new Hono<AppEnv>()
    .get(
      '/',
      ok(auditListResponse, 'One page of the audit log'),
      requireAuth,
      requireAuditReader,
      validate('query', auditListQuery),
      async (c) => c.json(await (await service(c)).list(c.req.valid('query'))),
    )
    .get(
      '/export',
      xlsx('The filtered audit log'),
      requireAuth,
      requireAuditReader,
      rateLimit('export'),
      validate('query', auditExportQuery),
      async (c) => {
        const q = c.req.valid('query');
        const s = await service(c);
        const pages = await s.exportPages(q, EXPORT_PAGE);
        const { actorId, ip } = auditContext(c);
        await withTransaction(c.get('deps').db, async (tx) =>
          audit(tx, {
            actorId,
            ip,
            action: 'export.audit_logs',
            entity: 'audit_log',
            after: { filters: q },
            organizationId: q.organizationId ?? null,
          }),
        );
        return streamXlsx(exportFileName('audit', 'nhat ky thay doi'), 'Nhật ký', [...AUDIT_EXPORT_FIELDS], pages);
      },
    );
}
