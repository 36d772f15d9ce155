/**
 * The payment-campaign rights a caller holds in one organization (001 §6: "checked per organization
 * context"). Row actions ask in the campaign's own organization, not in the header's current one,
 * so a row of a unit where the caller holds nothing shows nothing but "view".
 */
import { useQuery } from '@tanstack/react-query';
import { fetchPermissions, holds } from '../../providers/permissions';

export const CAMPAIGN_RIGHTS = [
  'create',
  'read',
  'update',
  'delete',
  'manage_assignments',
  'view_reports',
  'export',
  'exempt',
  'reverse_payment',
  'send_reminders',
  'view_remittance',
] as const;
export type CampaignRight = (typeof CAMPAIGN_RIGHTS)[number];
export type CampaignRights = Record<CampaignRight, boolean> & { access: boolean; isSuperAdmin: boolean; ready: boolean };

/** `organizationId` null asks outside any organization (global grants only). */
export function useCampaignRights(organizationId: number | null | undefined): CampaignRights {
  const q = useQuery({
    queryKey: ['permissions', 'payment-campaigns', organizationId ?? null],
    queryFn: () => fetchPermissions(organizationId ?? null),
    enabled: organizationId !== undefined,
  });
  const has = (code: string) => holds(q.data, [`payment-campaigns.${code}`]);
  const rights = Object.fromEntries(CAMPAIGN_RIGHTS.map((r) => [r, has(r)])) as Record<CampaignRight, boolean>;
  return { ...rights, access: has('access'), isSuperAdmin: q.data?.isSuperAdmin ?? false, ready: q.isSuccess };
}
