import {
  dashboardQuery,
  dashboardWeeklyQuery,
  dashboardWeeklySchema,
  dashboardCampaignsSchema,
  dashboardMembersSchema,
} from '@doanhoi/shared';
import { Hono, type Context } from 'hono';
import { requireAuth, requirePermission } from '../access/middleware';
import type { AppEnv } from '../lib/context';
import { pickLanguage } from '../lib/i18n';
import { rateLimit } from '../lib/rate-limit';
import { cachedJson } from '../lib/json';
import { validate } from '../lib/validate';
import { fromCampaignQuery } from '../access/payments';
import { MEMBER_FIGURES, requireHere } from './scope';
import { dashboardService } from './service';
import { campaignSheets, memberSheets, weeklySheets } from './sheets';
import { workbook, xlsxResponse } from './xlsx';
import { ok } from '../lib/openapi/contract';

/**
 * /api/dashboard: membership figures need organizations.view_member_count (scope.ts), money figures
 * payment-campaigns.view_reports, each in ?organizationId (or, without it, wherever held).
 */
export function dashboardRoutes() {
  const svc = (c: Context<AppEnv>) => dashboardService(c.get('deps').db, c.get('actor'));
  const lang = (c: Context<AppEnv>) => pickLanguage(c.req.header('accept-language'));
  const limited = rateLimit('dashboard');
  return new Hono<AppEnv>()
    .get(
      '/members',
      ok(dashboardMembersSchema, 'Members per unit with the Đoàn/Hội split and joins this term'),
      requireAuth,
      validate('query', dashboardQuery),
      requireHere(MEMBER_FIGURES),
      limited,
      async (c) => {
        const q = c.req.valid('query');
        const data = await svc(c).members(q.organizationId);
        return q.format === 'xlsx' ? xlsxResponse(await workbook(memberSheets(data), lang(c)), 'dashboard-members') : cachedJson(c, data);
      },
    )
    .get(
      '/campaigns',
      ok(dashboardCampaignsSchema, 'Active campaigns: collection per campaign and unit, overdue, lagging units'),
      requireAuth,
      validate('query', dashboardQuery),
      requireHere('payment-campaigns.view_reports'),
      limited,
      async (c) => {
        const q = c.req.valid('query');
        const data = await svc(c).campaigns(q.organizationId);
        return q.format === 'xlsx'
          ? xlsxResponse(await workbook(campaignSheets(data), lang(c)), 'dashboard-collection')
          : cachedJson(c, data);
      },
    )
    .get(
      '/weekly',
      ok(dashboardWeeklySchema, "A campaign's collection per week"),
      requireAuth,
      validate('query', dashboardWeeklyQuery),
      requirePermission('payment-campaigns.view_reports', fromCampaignQuery('campaignId')),
      limited,
      async (c) => {
        const q = c.req.valid('query');
        const data = await svc(c).weekly(q.campaignId);
        return q.format === 'xlsx'
          ? xlsxResponse(await workbook(weeklySheets(data), lang(c)), `dashboard-weekly-${q.campaignId}`)
          : cachedJson(c, data);
      },
    );
}
