/**
 * "Biên nhận" of a paid order (issue 11 item 15): receipt number (the order code), payer name and
 * code, campaign, organization, amount in figures and in Vietnamese words, method and time. It is
 * what the page prints (A5, see styles.css) and what the browser saves as PDF.
 */
import { amountInWords, formatDateTime, formatVnd, fullName } from '@doanhoi/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n';
import { getAssignment, type MyAssignment, type ResultOrder } from '../../api';
import { readDate } from '../../rules';

/** The money the receipt acknowledges: what arrived, else the order's amount. */
export function receiptAmount(order: ResultOrder): number {
  return order.receivedAmount && order.receivedAmount > 0 ? order.receivedAmount : order.amount;
}

export function Receipt({ order }: { order: ResultOrder }) {
  const { t } = useTranslation('myPayments');
  const [assignment, setAssignment] = useState<MyAssignment | null>(null);
  useEffect(() => {
    if (!order.assignmentId) return;
    let live = true;
    getAssignment(order.assignmentId).then(
      (a) => live && setAssignment(a),
      // The receipt still prints without the payer block.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [order.assignmentId]);
  const amount = receiptAmount(order);
  const method = order.paymentMethod === 'MANUAL' ? t('receipt.methods.manual') : t('receipt.methods.online');
  const rows: [string, string, string?][] = [
    [t('receipt.number'), String(order.orderCode), 'receipt-number'],
    [t('receipt.payer'), assignment?.user ? fullName(assignment.user) : '—', 'receipt-payer'],
    [t('receipt.payerCode'), assignment?.user?.code ?? '—', 'receipt-payer-code'],
    [t('receipt.campaign'), assignment?.campaign.name ?? '—', 'receipt-campaign'],
    [t('receipt.organization'), assignment?.campaign.organization?.name ?? '—', 'receipt-organization'],
    [t('receipt.amount'), formatVnd(amount), 'receipt-amount'],
    [t('receipt.amountInWords'), amountInWords(amount), 'receipt-words'],
    [t('receipt.method'), method],
    [t('receipt.time'), formatDateTime(readDate(order.paidAt ?? order.createdAt)) || '—', 'receipt-time'],
  ];
  return (
    <section className="receipt" aria-labelledby="receipt-title" data-testid="receipt">
      <header className="receipt-head">
        <div className="receipt-org">{assignment?.campaign.organization?.name ?? ''}</div>
        <h2 id="receipt-title">{t('receipt.title')}</h2>
        {order.isTest ? (
          <span className="badge badge-test" data-testid="receipt-test">
            {t('receipt.test')}
          </span>
        ) : null}
      </header>
      <dl className="details-list">
        {rows.map(([label, value, testId]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd data-testid={testId}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
