/**
 * The payment-campaign rights a caller holds in one organization (001 §6: "checked per organization
 * context"). Row actions ask in the campaign's own organization, not in the header's current one,
 * so a row of a unit where the caller holds nothing shows nothing but "view".
 */
import { useRights } from '../../components/permission-guard/use-allowed';

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
export type CampaignRights = Record<CampaignRight, boolean> & { access: boolean; ready: boolean };

const CODES = ['access', ...CAMPAIGN_RIGHTS].map((r) => `payment-campaigns.${r}`);

/** `organizationId` null asks outside any organization (global grants only). */
export function useCampaignRights(organizationId: number | null | undefined): CampaignRights {
  const { has, ready } = useRights(CODES, { organizationId: organizationId ?? null }, organizationId !== undefined);
  const rights = Object.fromEntries(CAMPAIGN_RIGHTS.map((r) => [r, has(`payment-campaigns.${r}`)])) as Record<CampaignRight, boolean>;
  return { ...rights, access: has('payment-campaigns.access'), ready };
}
