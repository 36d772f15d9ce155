import type { OrderStatus } from '@doanhoi/shared';
import { useTranslation } from '../../i18n';
import type { Tone } from '../../outcome';
import { POLL_INTERVAL_MS } from '../../rules';
import { AlertIcon, CheckCircleIcon, ClockIcon, HourglassIcon, InfoIcon, RefreshIcon, XCircleIcon } from '../icons';
import './outcome.css';

const ICONS = { PENDING: ClockIcon, PAID: CheckCircleIcon, CANCELLED: XCircleIcon, EXPIRED: HourglassIcon };
const TONE_ICONS = { success: CheckCircleIcon, warning: AlertIcon, danger: XCircleIcon, neutral: InfoIcon };

interface Props {
  status: OrderStatus;
  checking: boolean;
  /** Automatic checks gave up (the member can still check again). */
  stopped?: boolean;
  /** The current wait between automatic checks. */
  interval?: number | null;
  onCheckAgain?: () => void;
  /** What happened to the money (outcome.ts), said instead of the bare status. */
  headline?: { tone: Tone; title: string; message: string; extra?: string | null } | null;
}

/** Status icon, title and message; while PENDING, the auto-refresh indicator and "check again". */
export function StatusDisplay({ status, checking, stopped = false, interval, onCheckAgain, headline }: Props) {
  const { t } = useTranslation('myPayments');
  const Icon = headline ? TONE_ICONS[headline.tone] : ICONS[status];
  return (
    <div
      className={`result-status result-${status.toLowerCase()}${headline ? ` result-tone-${headline.tone}` : ''}`}
      data-testid="payment-status"
      data-status={status}
      data-tone={headline?.tone}
    >
      <Icon className="result-icon" />
      <h2>{headline ? headline.title : t(`paymentResult.status.${status}.title`)}</h2>
      <p className="muted">{headline ? headline.message : t(`paymentResult.status.${status}.message`)}</p>
      {headline?.extra ? (
        <p className="result-extra" data-testid="result-still-due">
          {headline.extra}
        </p>
      ) : null}
      {status === 'PENDING' ? (
        <div
          className="auto-refresh no-print"
          role="status"
          aria-live="polite"
          data-testid="auto-refresh"
          data-checking={checking}
          data-stopped={stopped}
        >
          <RefreshIcon className={checking ? 'auto-refresh-icon spinning' : 'auto-refresh-icon'} />
          <span>
            {checking
              ? t('paymentResult.autoRefresh.checking')
              : stopped
                ? t('paymentResult.autoRefresh.stopped')
                : t('paymentResult.autoRefresh.interval', { seconds: (interval ?? POLL_INTERVAL_MS) / 1000 })}
          </span>
          {onCheckAgain ? (
            <button
              type="button"
              className="btn btn-default btn-small"
              onClick={onCheckAgain}
              disabled={checking}
              data-testid="check-again"
            >
              {t('paymentResult.buttons.checkAgain')}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
