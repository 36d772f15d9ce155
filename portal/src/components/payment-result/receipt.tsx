/**
 * "Biên nhận" of a paid order (issue 11 item 15): receipt number (the order code), payer name and
 * code, campaign, organization, amount in figures and in Vietnamese words, method and time. It is
 * what the page prints (A5, see styles.css) and what the browser saves as PDF. It acknowledges what
 * counted towards the fee, shows refunded excess beside it, and a reversed payment is stamped void
 * (issue 25.3c); the page shows it only when the order has one (outcome.ts hasReceipt).
 */
import { amountInWords, formatDateTime, formatVnd, fullName } from '@doanhoi/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../i18n';
import { getAssignment, type MyAssignment, type ResultOrder } from '../../api';
import { readDate } from '../../rules';

/**
 * The money the receipt acknowledges: what counted towards the fee (issue 25.3c: refunded or
 * refund-due excess is not acknowledged as paid), else, from an older API, what arrived.
 */
export function receiptAmount(order: ResultOrder): number {
  const o = order.outcome;
  if (o) return o.reversedAt ? o.received : o.counted;
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
  const o = order.outcome;
  const reversed = Boolean(o?.reversedAt);
  // Money that arrived but did not count (refunded or to be refunded) is shown beside what counted.
  const split = o && !reversed && o.received !== o.counted;
  const method = order.paymentMethod === 'MANUAL' ? t('receipt.methods.manual') : t('receipt.methods.online');
  type Row = [string, string, string?, string?];
  const rows: (Row | null)[] = [
    [t('receipt.number'), String(order.orderCode), 'receipt-number'],
    [t('receipt.payer'), assignment?.user ? fullName(assignment.user) : '—', 'receipt-payer'],
    [t('receipt.payerCode'), assignment?.user?.code ?? '—', 'receipt-payer-code'],
    [t('receipt.campaign'), assignment?.campaign.name ?? '—', 'receipt-campaign'],
    [t('receipt.organization'), assignment?.campaign.organization?.name ?? '—', 'receipt-organization'],
    split ? [t('receipt.received'), formatVnd(o.received), 'receipt-received'] : null,
    split && o.refunded > 0 ? [t('receipt.refunded'), formatVnd(o.refunded), 'receipt-refunded'] : null,
    split && o.refundDue > 0 ? [t('receipt.refundDue'), formatVnd(o.refundDue), 'receipt-refund-due'] : null,
    [split ? t('receipt.counted') : t('receipt.amount'), formatVnd(amount), 'receipt-amount', reversed ? 'receipt-struck' : undefined],
    [t('receipt.amountInWords'), amountInWords(amount), 'receipt-words', reversed ? 'receipt-struck' : undefined],
    [t('receipt.method'), method],
    [t('receipt.time'), formatDateTime(readDate(order.paidAt ?? order.createdAt)) || '—', 'receipt-time'],
    reversed && o
      ? [
          t('receipt.reversedOn'),
          [formatDateTime(readDate(o.reversedAt)), o.reversalReason].filter(Boolean).join(' — '),
          'receipt-reversed',
        ]
      : null,
  ];
  return (
    <section
      className={reversed ? 'receipt receipt-void' : 'receipt'}
      aria-labelledby="receipt-title"
      data-testid="receipt"
      data-reversed={reversed}
    >
      <header className="receipt-head">
        <div className="receipt-org">{assignment?.campaign.organization?.name ?? ''}</div>
        <h2 id="receipt-title">{t('receipt.title')}</h2>
        {reversed ? (
          <div className="receipt-stamp" data-testid="receipt-reversed-stamp">
            {t('receipt.reversedStamp')}
          </div>
        ) : null}
        {order.isTest ? (
          <span className="badge badge-test" data-testid="receipt-test">
            {t('receipt.test')}
          </span>
        ) : null}
      </header>
      <dl className="details-list">
        {rows
          .filter((r): r is Row => r !== null)
          .map(([label, value, testId, cls]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd data-testid={testId} className={cls}>
                {value}
              </dd>
            </div>
          ))}
      </dl>
    </section>
  );
}
