import type { AssignmentStatus } from '@doanhoi/shared';
import { useTranslation } from '../i18n';

/** The displayed assignment status (PENDING past the campaign end is already OVERDUE here). */
export function StatusBadge({ status }: { status: AssignmentStatus }) {
  const { t } = useTranslation('myPayments');
  return <span className={`badge badge-${status.toLowerCase()}`}>{t(`status.${status}`)}</span>;
}
