import type { Campaign } from '@doanhoi/shared';
import { RemittancePanel } from '../../dues/remittance-panel';

/** The campaign's Remittance tab (issue 30 item 5): its organization's level first, units open their own. */
export function RemittanceTab({ campaign }: { campaign: Pick<Campaign, 'id' | 'organizationId'> }) {
  return <RemittancePanel campaignId={campaign.id} organizationId={campaign.organizationId} />;
}
