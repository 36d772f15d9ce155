/** Which columns each chart's workbook has (the chart's own data, one row per bar or point). */
import type { DashboardCampaigns, DashboardMembers, DashboardWeekly } from '@doanhoi/shared';
import type { Sheet } from './xlsx';

const COLLECTION = ['assigned', 'paid', 'testPaid', 'expected', 'collected', 'rate', 'overdueAmount', 'overdueCount'];

export function memberSheets(d: DashboardMembers): Sheet[] {
  return [{ name: 'members', columns: ['name', 'members', 'doanVien', 'hoiVien', 'joinsThisTerm'], rows: d.units }];
}

export function campaignSheets(d: DashboardCampaigns): Sheet[] {
  return [
    { name: 'units', columns: ['name', ...COLLECTION], rows: d.units },
    {
      name: 'campaigns',
      columns: ['campaign', 'organization', ...COLLECTION],
      rows: d.campaigns.map((c) => ({ ...c, campaign: c.name, organization: c.organizationName })),
    },
  ];
}

export function weeklySheets(d: DashboardWeekly): Sheet[] {
  return [{ name: 'weekly', columns: ['weekStart', 'collected', 'payments', 'cumulative'], rows: d.weeks }];
}
