/**
 * My payments' headline about money (issue 25.5): for each fee, what was received and what follows
 * — the balance still due, or the excess the unit will refund — so the member reads it without
 * opening each order.
 */
import { formatVnd } from '@doanhoi/shared';
import { useTranslation } from '../../i18n';
import type { MyAssignment } from '../../api';
import { partlyPaidOf, owedOf } from '../../rules';
import { InfoIcon } from '../icons';
import './money-notices.css';

export function MoneyNotices({ assignments }: { assignments: MyAssignment[] }) {
  const { t } = useTranslation('myPayments');
  const items = assignments.flatMap((a) => {
    const unit = a.campaign.organization?.name ?? t('table.na');
    const refund = a.refundDue ?? 0;
    // Cancelled campaigns ask nothing more: only their refunds are told.
    const due = a.campaign.status === 'ACTIVE' ? partlyPaidOf(a) : 0;
    if (refund > 0) {
      const received = (a.paidAmount ?? 0) + refund;
      return [
        {
          a,
          kind: 'refund',
          title: t('money.refundTitle', { received: formatVnd(received), refund: formatVnd(refund) }),
          message: t('money.refundMessage', { campaign: a.campaign.name, unit }),
        },
      ];
    }
    if (due > 0) {
      return [
        {
          a,
          kind: 'due',
          title: t('money.dueTitle', { received: formatVnd(due), due: formatVnd(owedOf(a)) }),
          message: t('money.dueMessage', { campaign: a.campaign.name }),
        },
      ];
    }
    return [];
  });
  if (items.length === 0) return null;
  return (
    <div className="money-notices" data-testid="money-notices">
      {items.map(({ a, kind, title, message }) => (
        <div key={a.id} className={`notice notice-money notice-money-${kind}`} role="status" data-testid="money-notice" data-kind={kind}>
          <InfoIcon className="notice-icon" />
          <div>
            <strong>{title}</strong>
            <div>{message}</div>
          </div>
        </div>
      ))}
    </div>
  );
}
