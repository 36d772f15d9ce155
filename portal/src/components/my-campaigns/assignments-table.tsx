/** The member's assignments: campaign, organization, fee level, amount, due date, status and action. */
import { formatDate, formatVnd } from '@doanhoi/shared';
import { useTranslation } from '../../i18n';
import type { MyAssignment } from '../../api';
import { amountOf, displayStatus, dueDateOf, memberAction, owedOf, partlyPaidOf, readDate } from '../../rules';
import { Spinner } from '../states';
import { StatusBadge } from '../status-badge';

interface Props {
  items: MyAssignment[];
  now: number;
  payingId: number | null;
  onPay: (a: MyAssignment) => void;
}

export function AssignmentsTable({ items, now, payingId, onPay }: Props) {
  const { t } = useTranslation('myPayments');
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="sr-only">{t('table.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('table.campaign')}</th>
            <th scope="col">{t('table.organization')}</th>
            <th scope="col">{t('table.feeLevel')}</th>
            <th scope="col" className="num">
              {t('table.amount')}
            </th>
            <th scope="col">{t('table.dueDate')}</th>
            <th scope="col">{t('table.status')}</th>
            <th scope="col" className="col-action">
              {t('table.action')}
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((a) => {
            const status = displayStatus(a, now);
            const action = memberAction(a, now);
            return (
              <tr key={a.id} data-testid="assignment-row" data-status={status} data-assignment-id={a.id}>
                <td data-label={t('table.campaign')}>
                  <div className="cell-title">{a.campaign.name}</div>
                  {a.campaign.description ? <div className="cell-sub">{a.campaign.description}</div> : null}
                  {a.campaign.status === 'CANCELLED' ? <span className="badge badge-muted">{t('table.campaignCancelled')}</span> : null}
                </td>
                <td data-label={t('table.organization')}>{a.campaign.organization?.name ?? t('table.na')}</td>
                <td data-label={t('table.feeLevel')}>{a.feeLevel?.levelName ?? t('table.na')}</td>
                <td data-label={t('table.amount')} className="num strong">
                  {/* A reduced or exempted fee shows what it was and why (issue 15.3). */}
                  {a.originalAmount != null ? (
                    <div className="cell-strike" data-testid="assignment-original">
                      {formatVnd(a.originalAmount)}
                    </div>
                  ) : null}
                  <div data-testid="assignment-amount">{formatVnd(amountOf(a))}</div>
                  {a.adjustment ? (
                    <div className="cell-sub cell-wrap" data-testid="assignment-adjustment">
                      {/* How much was waived, as such (issue 26 item 9): never just a smaller fee. */}
                      {a.adjustment === 'REDUCED' && a.originalAmount != null
                        ? t('table.waived', { amount: formatVnd(a.originalAmount - amountOf(a)) })
                        : t(`table.adjustment.${a.adjustment}`)}
                      {a.adjustmentReason ? `: ${a.adjustmentReason}` : ''}
                    </div>
                  ) : null}
                  {partlyPaidOf(a) > 0 ? (
                    <div className="cell-sub" data-testid="assignment-remaining">
                      {t('table.remaining', { remaining: formatVnd(owedOf(a)), paid: formatVnd(partlyPaidOf(a)) })}
                    </div>
                  ) : null}
                  {(a.refundDue ?? 0) > 0 ? (
                    <div className="cell-sub cell-refund" data-testid="assignment-refund">
                      {t('table.refundDue', { amount: formatVnd(a.refundDue ?? 0) })}
                    </div>
                  ) : null}
                </td>
                <td data-label={t('table.dueDate')}>
                  <div>{formatDate(readDate(dueDateOf(a))) || t('table.na')}</div>
                  {status === 'PAID' && a.paidAt ? (
                    <div className="cell-sub">{t('table.paidOn', { date: formatDate(readDate(a.paidAt)) })}</div>
                  ) : null}
                </td>
                <td data-label={t('table.status')}>
                  <StatusBadge status={status} />
                  {a.isTestPayment ? (
                    <span className="badge badge-test" data-testid="test-payment-badge">
                      {t('table.testPayment')}
                    </span>
                  ) : null}
                </td>
                <td data-label={t('table.action')} className="col-action">
                  {action === 'pay' ? (
                    <button
                      type="button"
                      className="btn btn-primary btn-small"
                      data-testid="pay-button"
                      disabled={payingId !== null}
                      onClick={() => onPay(a)}
                    >
                      {payingId === a.id ? <Spinner small /> : null}
                      {payingId === a.id
                        ? t('actions.creatingLink')
                        : partlyPaidOf(a) > 0
                          ? t('actions.payRemaining')
                          : t('actions.payNow')}
                    </button>
                  ) : action === 'treasurer' ? (
                    <div className="pay-treasurer" data-action="treasurer">
                      {t('actions.payTreasurer', { amount: formatVnd(owedOf(a)), unit: a.campaign.organization?.name ?? t('table.na') })}
                    </div>
                  ) : action === 'expired' ? (
                    <>
                      <button type="button" className="btn btn-small" disabled data-action="expired">
                        {t('actions.paymentExpired')}
                      </button>
                      {/* An overdue fee of an open campaign is still owed: say who takes it (issue 26 item 9). */}
                      {a.campaign.status === 'ACTIVE' && owedOf(a) > 0 ? (
                        <div className="cell-sub cell-wrap" data-testid="overdue-treasurer">
                          {t('table.overdueTreasurer', {
                            amount: formatVnd(owedOf(a)),
                            unit: a.campaign.organization?.name ?? t('table.na'),
                          })}
                        </div>
                      ) : null}
                    </>
                  ) : action === 'exempted' ? (
                    <button type="button" className="btn btn-small" disabled data-action="exempted">
                      {t('actions.exempted')}
                    </button>
                  ) : action === 'paid' ? (
                    <button type="button" className="btn btn-small btn-success-ghost" disabled data-action="paid">
                      {t('actions.alreadyPaid')}
                    </button>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
