import { formatVnd } from '@doanhoi/shared';
import { useTranslation } from '../../i18n';
import type { Summary } from '../../rules';
import { AlertIcon, CheckCircleIcon, ClockIcon, WalletIcon } from '../icons';

const TILES = [
  { key: 'total', Icon: WalletIcon },
  { key: 'pending', Icon: ClockIcon },
  { key: 'paid', Icon: CheckCircleIcon },
  { key: 'overdue', Icon: AlertIcon },
] as const;

/** Total, pending, paid and overdue: counts with their VND sums. */
export function StatTiles({ summary }: { summary: Summary }) {
  const { t } = useTranslation('myPayments');
  return (
    <section className="tiles" aria-label={t('stats.label')}>
      {TILES.map(({ key, Icon }) => (
        <div key={key} className={`tile tile-${key}`} data-testid={`stat-${key}`}>
          <div className="tile-head">
            <Icon className="tile-icon" />
            <span>{t(`stats.${key}`)}</span>
          </div>
          <div className="tile-count">{t('stats.count', { count: summary[key].count })}</div>
          <div className="tile-amount">{formatVnd(summary[key].amount)}</div>
        </div>
      ))}
    </section>
  );
}
