/** Reminders on my-payments (issue 15.2): one notice per reminded fee, shown until it is paid. */
import { formatDate, formatDateTime, formatVnd, type MyReminder } from '@doanhoi/shared';
import { useTranslation } from '../../i18n';
import type { MyAssignment } from '../../api';
import { memberAction, owedOf } from '../../rules';
import { ClockIcon } from '../icons';
import './reminder-notices.css';

interface Props {
  reminders: MyReminder[];
  assignments: MyAssignment[];
  payingId: number | null;
  onPay: (a: MyAssignment) => void;
}

export function ReminderNotices({ reminders, assignments, payingId, onPay }: Props) {
  const { t } = useTranslation('reminders');
  const byId = new Map(assignments.map((a) => [a.id, a]));
  // A notice whose fee the page no longer lists as payable (paid meanwhile) is not shown.
  const shown = reminders.filter((r) => byId.get(r.assignmentId) && byId.get(r.assignmentId)!.status !== 'PAID');
  if (shown.length === 0) return null;
  return (
    <div className="reminder-notices" data-testid="reminder-notices">
      {shown.map((r) => {
        const a = byId.get(r.assignmentId)!;
        return (
          <div key={r.assignmentId} className="notice notice-reminder" role="status" data-testid="reminder-notice">
            <ClockIcon className="notice-icon" />
            <div className="reminder-body">
              <strong>{t('notice.title')}</strong>
              <div>
                {t('notice.message', {
                  amount: formatVnd(r.amount),
                  campaign: r.campaignName,
                  due: r.dueDate ? formatDate(r.dueDate) : t('notice.noDue'),
                })}
              </div>
              <div className="muted reminder-when">{t('notice.remindedAt', { date: formatDateTime(r.remindedAt) })}</div>
            </div>
            {/* The fee's own answer decides: a unit without online payment is paid at its treasurer (issue 25.3). */}
            {memberAction(a) === 'pay' ? (
              <button
                type="button"
                className="btn btn-primary"
                disabled={payingId !== null}
                onClick={() => onPay(a)}
                data-testid="reminder-pay"
              >
                {t('notice.pay')}
              </button>
            ) : memberAction(a) === 'treasurer' ? (
              <div className="pay-treasurer" data-action="treasurer">
                {t('myPayments:actions.payTreasurer', { amount: formatVnd(owedOf(a)), unit: a.campaign.organization?.name ?? '' })}
              </div>
            ) : memberAction(a) === 'expired' && owedOf(a) > 0 ? (
              // An overdue reminder: online payment is closed, the treasurer still takes it (issue 26 item 9).
              <div className="pay-treasurer" data-action="treasurer">
                {t('myPayments:table.overdueTreasurer', { amount: formatVnd(owedOf(a)), unit: a.campaign.organization?.name ?? '' })}
              </div>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}
