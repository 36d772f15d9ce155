import type { OrderStatus } from '@doanhoi/shared';
import { useTranslation } from 'react-i18next';
import { POLL_INTERVAL_MS } from '../../rules';
import { CheckCircleIcon, ClockIcon, HourglassIcon, RefreshIcon, XCircleIcon } from '../icons';

const ICONS = { PENDING: ClockIcon, PAID: CheckCircleIcon, CANCELLED: XCircleIcon, EXPIRED: HourglassIcon };

/** Status icon, title and message; while PENDING, the auto-refresh indicator. */
export function StatusDisplay({ status, checking }: { status: OrderStatus; checking: boolean }) {
  const { t } = useTranslation('myPayments');
  const Icon = ICONS[status];
  return (
    <div className={`result-status result-${status.toLowerCase()}`} data-testid="payment-status" data-status={status}>
      <Icon className="result-icon" />
      <h2>{t(`paymentResult.status.${status}.title`)}</h2>
      <p className="muted">{t(`paymentResult.status.${status}.message`)}</p>
      {status === 'PENDING' ? (
        <div className="auto-refresh no-print" role="status" aria-live="polite" data-testid="auto-refresh" data-checking={checking}>
          <RefreshIcon className={checking ? 'auto-refresh-icon spinning' : 'auto-refresh-icon'} />
          <span>{checking ? t('paymentResult.autoRefresh.checking') : t('paymentResult.autoRefresh.interval', { seconds: POLL_INTERVAL_MS / 1000 })}</span>
        </div>
      ) : null}
    </div>
  );
}
