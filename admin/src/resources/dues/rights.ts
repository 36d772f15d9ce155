import { useQuery } from '@tanstack/react-query';
import { fetchPermissions, holds } from '../../providers/permissions';

export const DUES_CODES = {
  rates: 'payment-campaigns.dues_rates',
  generate: 'payment-campaigns.generate_dues',
  view: 'payment-campaigns.view_remittance',
  remit: 'payment-campaigns.remit',
  confirm: 'payment-campaigns.confirm_remittance',
  settings: 'system.manage_settings',
} as const;

/** The đoàn phí rights held in one unit (checked in that unit, as the API does). */
export function useDuesRights(organizationId: number | null | undefined) {
  const q = useQuery({
    queryKey: ['permissions', 'dues', organizationId ?? null],
    queryFn: () => fetchPermissions(organizationId ?? null),
    enabled: organizationId !== undefined,
  });
  const has = (code: string) => holds(q.data, [code]);
  return {
    rates: has(DUES_CODES.rates),
    generate: has(DUES_CODES.generate) && has('payment-campaigns.create') && has('payment-campaigns.manage_assignments'),
    view: has(DUES_CODES.view),
    remit: has(DUES_CODES.remit),
    confirm: has(DUES_CODES.confirm),
    ready: q.isSuccess,
  };
}
