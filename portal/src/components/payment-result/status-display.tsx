import type { OrderStatus } from '@doanhoi/shared';
import { useTranslation } from '../../i18n';
import { POLL_INTERVAL_MS } from '../../rules';
import { CheckCircleIcon, ClockIcon, HourglassIcon, RefreshIcon, XCircleIcon } from '../icons';

const ICONS = { PENDING: ClockIcon, PAID: CheckCircleIcon, CANCELLED: XCircleIcon, EXPIRED: HourglassIcon };

interface Props {
  status: OrderStatus;
  checking: boolean;
  /** Automatic checks gave up (the member can still check again). */
  stopped?: boolean;
  /** The current wait between automatic checks. */
  interval?: number | null;
  onCheckAgain?: () => void;
}

/** Status icon, title and message; while PENDING, the auto-refresh indicator and "check again". */
export function StatusDisplay({ status, checking, stopped = false, interval, onCheckAgain }: Props) {
  const { t } = useTranslation('myPayments');
  const Icon = ICONS[status];
  return (
    <div className={`result-status result-${status.toLowerCase()}`} data-testid="payment-status" data-status={status}>
      <Icon className="result-icon" />
      <h2>{t(`paymentResult.status.${status}.title`)}</h2>
      <p className="muted">{t(`paymentResult.status.${status}.message`)}</p>
      {status === 'PENDING' ? (
        <div className="auto-refresh no-print" role="status" aria-live="polite" data-testid="auto-refresh" data-checking={checking} data-stopped={stopped}>
          <RefreshIcon className={checking ? 'auto-refresh-icon spinning' : 'auto-refresh-icon'} />
          <span>
            {checking
              ? t('paymentResult.autoRefresh.checking')
              : stopped
                ? t('paymentResult.autoRefresh.stopped')
                : t('paymentResult.autoRefresh.interval', { seconds: (interval ?? POLL_INTERVAL_MS) / 1000 })}
          </span>
          {onCheckAgain ? (
            <button type="button" className="btn btn-default btn-small" onClick={onCheckAgain} disabled={checking} data-testid="check-again">
              {t('paymentResult.buttons.checkAgain')}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
