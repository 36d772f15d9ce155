import type { DashboardCampaigns, DashboardMembers, DashboardWeekly } from '@doanhoi/shared';
import { useCustom } from '@refinedev/core';
import { ANYWHERE, useRights } from '../../components/permission-guard/use-allowed';
import { useCurrentOrganization } from '../../context/current-organization';
import { API_URL } from '../../providers/http';

/** As the API (api/src/dashboard/scope.ts): member counts need their own permission, not just the screen's. */
export const MEMBERS_CODE = 'organizations.view_member_count';
export const REPORTS_CODE = 'payment-campaigns.view_reports';

/**
 * What the dashboard may show, decided as the API decides it: in the current organization when
 * one is chosen, else wherever the code is held (the API then scopes to those organizations).
 */
export function useDashboardRights() {
  const { organizationId } = useCurrentOrganization();
  const { has, ready } = useRights([MEMBERS_CODE, REPORTS_CODE], organizationId == null ? ANYWHERE : undefined);
  return { organizationId, ready, members: has(MEMBERS_CODE), money: has(REPORTS_CODE) };
}

const query = (organizationId: number | null, extra: Record<string, string | number> = {}) => ({
  ...(organizationId != null ? { organizationId } : {}),
  ...extra,
});

export function useMemberFigures(organizationId: number | null, enabled: boolean) {
  const { query: q, result } = useCustom<DashboardMembers>({
    url: `${API_URL}/dashboard/members`,
    method: 'get',
    config: { query: query(organizationId) },
    queryOptions: { enabled },
  });
  return { query: q, data: q.isSuccess ? (result.data as DashboardMembers) : undefined };
}

export function useCollectionFigures(organizationId: number | null, enabled: boolean) {
  const { query: q, result } = useCustom<DashboardCampaigns>({
    url: `${API_URL}/dashboard/campaigns`,
    method: 'get',
    config: { query: query(organizationId) },
    queryOptions: { enabled },
  });
  return { query: q, data: q.isSuccess ? (result.data as DashboardCampaigns) : undefined };
}

export function useWeeklyFigures(campaignId: number | undefined) {
  const { query: q, result } = useCustom<DashboardWeekly>({
    url: `${API_URL}/dashboard/weekly`,
    method: 'get',
    config: { query: { campaignId: campaignId ?? 0 } },
    queryOptions: { enabled: campaignId != null },
  });
  return { query: q, data: q.isSuccess ? (result.data as DashboardWeekly) : undefined };
}

/** The xlsx of a chart's data (format=xlsx on the same route, so it holds exactly what is drawn). */
export function xlsxPath(
  path: 'members' | 'campaigns' | 'weekly',
  organizationId: number | null,
  extra: Record<string, string | number> = {},
) {
  const q = new URLSearchParams(Object.entries({ ...query(organizationId, extra), format: 'xlsx' }).map(([k, v]) => [k, String(v)]));
  return `${API_URL}/dashboard/${path}?${q}`;
}
