import { reportQuery, membershipReportSchema } from '@doanhoi/shared';
import { Hono } from 'hono';
import { requireAuth, requirePermission, type OrganizationFrom } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { rateLimit } from '../lib/rate-limit';
import { validate } from '../lib/validate';
import { reportXlsx } from './export';
import { membershipReport } from './service';
import { ok, xlsx } from '../lib/openapi/contract';

export const REPORTS_VIEW = 'reports.view';

/** The unit asked about: reports.view must be held there (or above it, or globally). */
const askedUnit: OrganizationFrom = (c) => {
  const n = Number(c.req.query('organizationId'));
  return Number.isInteger(n) && n > 0 ? n : null;
};

/** GET /reports/membership(/export) (issue 30 item 8). Bad input is 400 before the permission check reads the unit. */
export function reportsRoutes() {
  return new Hono<AppEnv>()
    .get(
      '/membership/export',
      xlsx('The same report as xlsx'),
      requireAuth,
      validate('query', reportQuery),
      requirePermission(REPORTS_VIEW, askedUnit),
      rateLimit('export'),
      async (c) => reportXlsx(await membershipReport(c.get('deps').db, c.req.valid('query'))),
    )
    .get(
      '/membership',
      ok(
        membershipReportSchema,
        'The unit (own and total) and its direct units: members at the start, movements, at the end by group, đoàn phí collected, kept and remitted',
      ),
      requireAuth,
      validate('query', reportQuery),
      requirePermission(REPORTS_VIEW, askedUnit),
      async (c) => c.json(await membershipReport(c.get('deps').db, c.req.valid('query'))),
    );
}
