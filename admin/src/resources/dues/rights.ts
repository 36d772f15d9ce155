import { useRights } from '../../components/permission-guard/use-allowed';

export const DUES_CODES = {
  rates: 'payment-campaigns.dues_rates',
  generate: 'payment-campaigns.generate_dues',
  view: 'payment-campaigns.view_remittance',
  remit: 'payment-campaigns.remit',
  confirm: 'payment-campaigns.confirm_remittance',
  settings: 'system.manage_settings',
} as const;

const CODES = [...Object.values(DUES_CODES), 'payment-campaigns.create', 'payment-campaigns.manage_assignments'];

/** The đoàn phí rights held in one unit (checked in that unit, as the API does). */
export function useDuesRights(organizationId: number | null | undefined) {
  const { has, ready } = useRights(CODES, { organizationId: organizationId ?? null }, organizationId !== undefined);
  return {
    rates: has(DUES_CODES.rates),
    generate: has(DUES_CODES.generate) && has('payment-campaigns.create') && has('payment-campaigns.manage_assignments'),
    view: has(DUES_CODES.view),
    remit: has(DUES_CODES.remit),
    confirm: has(DUES_CODES.confirm),
    ready,
  };
}
