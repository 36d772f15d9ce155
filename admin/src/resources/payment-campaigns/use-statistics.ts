import type { CampaignStatistics } from '@doanhoi/shared';
import { useCustom } from '@refinedev/core';
import { apiUrl } from './use-refresh';

/** GET /payment-campaigns/{id}/statistics through Refine's cache (the statistics tab and the assignments tiles share it). */
export function useCampaignStatistics(campaignId: number) {
  const { query, result } = useCustom<CampaignStatistics>({ url: apiUrl(`/payment-campaigns/${campaignId}/statistics`), method: 'get' });
  return { query, stats: query.isSuccess ? (result.data as CampaignStatistics) : undefined };
}
