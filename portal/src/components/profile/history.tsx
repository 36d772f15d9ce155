import { formatDateTime, formatVnd } from '@doanhoi/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n';
import { Link } from '../../router';
import { Pagination } from '../pagination';
import { EmptyState, ErrorState, LoadingState } from '../states';
import { readHistory, type HistoryOrder, type HistoryPage } from './api';

const LIMIT = 10;
const BADGE: Record<string, string> = { PAID: 'badge-paid', PENDING: 'badge-pending', REFUND_DUE: 'badge-pending' };

/** A reversed payment, a reversing entry and money awaiting refund are not plainly "paid" (issue 25.3c). */
function shownStatus(o: HistoryOrder): string {
  if (o.outcome?.reversesOrderCode != null) return 'REVERSAL';
  if (o.outcome?.reversedAt) return 'REVERSED';
  if (o.status === 'PAID' && (o.outcome?.refundDue ?? 0) > 0) return 'REFUND_DUE';
  return o.status;
}

/** The member's payment orders, paged on the server, each with a link to its receipt page. */
export function PaymentHistory() {
  const { t } = useTranslation(['profile', 'portal']);
  const [page, setPage] = useState(1);
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<{ status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; data: HistoryPage }>(
    { status: 'loading' },
  );

  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    readHistory(page, LIMIT).then(
      (data) => live && setState({ status: 'ready', data }),
      (err: unknown) => live && setState({ status: 'error', message: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      live = false;
    };
  }, [page, attempt]);

  if (state.status === 'loading') return <LoadingState />;
  if (state.status === 'error') {
    return (
      <ErrorState
        title={t('history.loadError')}
        message={state.message}
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setAttempt((n) => n + 1)}>
            {t('portal:common.retry')}
          </button>
        }
      />
    );
  }
  const { items, total, totalPages } = state.data;
  if (total === 0) return <EmptyState title={t('history.emptyTitle')} message={t('history.empty')} />;
  return (
    <>
      <div className="table-wrap">
        <table className="table" data-testid="profile-history">
          <caption className="sr-only">{t('history.title')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('history.campaign')}</th>
              <th scope="col">{t('history.amount')}</th>
              <th scope="col">{t('history.status')}</th>
              <th scope="col">{t('history.date')}</th>
              <th scope="col">{t('history.receipt')}</th>
            </tr>
          </thead>
          <tbody>
            {items.map((o) => (
              <tr key={o.id}>
                <td data-label={t('history.campaign')}>
                  <strong>{o.campaign.name}</strong>
                  <div className="muted small">{o.feeLevel.levelName}</div>
                </td>
                <td className="nowrap" data-label={t('history.amount')}>
                  {formatVnd(o.amount)}
                </td>
                <td data-label={t('history.status')}>
                  <span className={`badge ${BADGE[shownStatus(o)] ?? 'badge-muted'}`}>{t(`history.statuses.${shownStatus(o)}`)}</span>
                </td>
                <td className="nowrap" data-label={t('history.date')}>
                  {formatDateTime(o.paidAt ?? o.createdAt)}
                </td>
                <td data-label={t('history.receipt')}>
                  <Link href={`/payment-result/${o.orderCode}`} data-testid={`receipt-${o.orderCode}`}>
                    {t((o.outcome ? o.outcome.receipt : o.status === 'PAID') ? 'history.viewReceipt' : 'history.viewOrder')}
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination
        page={page}
        totalPages={totalPages}
        total={total}
        from={(page - 1) * LIMIT + 1}
        to={Math.min(page * LIMIT, total)}
        onChange={setPage}
      />
    </>
  );
}
