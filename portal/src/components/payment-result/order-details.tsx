import { formatDateTime, formatVnd, type OrderStatus } from '@doanhoi/shared';
import { useTranslation } from '../../i18n';
import type { ResultOrder } from '../../api';
import { lastWords, readDate } from '../../rules';

/** Order code, amount (VND), creation time (vi-VN), then each bank transaction. */
export function OrderDetails({ order, status }: { order: ResultOrder; status: OrderStatus }) {
  // A reversing entry and a reversed payment are not plainly "paid" (issue 25.3c).
  const label = order.outcome?.reversesOrderCode != null ? 'REVERSAL' : order.outcome?.reversedAt ? 'REVERSED' : status;
  const { t } = useTranslation('myPayments');
  const transactions = order.transactions ?? [];
  return (
    <section className="details" aria-labelledby="order-details-title" data-testid="order-details">
      <h3 id="order-details-title">{t('paymentResult.details.title')}</h3>
      <dl className="details-list">
        <div>
          <dt>{t('paymentResult.details.orderCode')}</dt>
          <dd className="mono" data-testid="order-code">
            {order.orderCode}
          </dd>
        </div>
        <div>
          <dt>{t('paymentResult.details.amount')}</dt>
          <dd className="strong" data-testid="order-amount">
            {formatVnd(order.amount)}
          </dd>
        </div>
        <div>
          <dt>{t('paymentResult.details.createdAt')}</dt>
          <dd>{formatDateTime(readDate(order.createdAt)) || '—'}</dd>
        </div>
        <div>
          <dt>{t('paymentResult.details.status')}</dt>
          <dd>{t(`paymentResult.statusLabel.${label}`)}</dd>
        </div>
      </dl>
      {transactions.length > 0 ? (
        <>
          <h3>{t('paymentResult.transactions.title')}</h3>
          <ul className="transactions">
            {transactions.map((tx, i) => (
              <li key={i} className="transaction" data-testid="transaction">
                <dl className="details-list">
                  <div>
                    <dt>{t('paymentResult.transactions.accountNumber')}</dt>
                    <dd className="mono">{tx.accountNumber || '—'}</dd>
                  </div>
                  <div>
                    <dt>{t('paymentResult.transactions.time')}</dt>
                    <dd>{formatDateTime(readDate(tx.transactionDateTime)) || '—'}</dd>
                  </div>
                  <div>
                    <dt>{t('paymentResult.transactions.description')}</dt>
                    <dd data-testid="transaction-description">{lastWords(tx.description) || '—'}</dd>
                  </div>
                </dl>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
