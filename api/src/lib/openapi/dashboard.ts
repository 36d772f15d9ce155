/** Success answers of /dashboard (issue 15.1); each route also answers ?format=xlsx with the same figures. */
import { dashboardCampaignsSchema, dashboardMembersSchema, dashboardWeeklySchema } from '@doanhoi/shared';
import { ok, type Contract } from './contract';

export const dashboardContract: Contract = {
  'GET /dashboard/members': ok(dashboardMembersSchema, 'Members per unit with the Đoàn/Hội split and joins this term'),
  'GET /dashboard/campaigns': ok(dashboardCampaignsSchema, 'Active campaigns: collection per campaign and unit, overdue, lagging units'),
  'GET /dashboard/weekly': ok(dashboardWeeklySchema, "A campaign's collection per week"),
};
