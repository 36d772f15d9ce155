/** /payment/my-campaigns: the member's own fee assignments, with pay now (001 §2, §4). */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../i18n';
import { ApiError, createPaymentLink, type MyAssignment } from '../api';
import { AssignmentFilters } from '../components/my-campaigns/filters';
import { AssignmentsTable } from '../components/my-campaigns/assignments-table';
import { MoneyNotices } from '../components/my-campaigns/money-notices';
import { ReminderNotices } from '../components/my-campaigns/reminder-notices';
import { StatTiles } from '../components/my-campaigns/stat-tiles';
import { InfoIcon, ShieldIcon } from '../components/icons';
import { Pagination } from '../components/pagination';
import { EmptyState, ErrorState, LoadingState } from '../components/states';
import { useToast } from '../components/toast';
import { useIsSuperAdmin, useMyAssignments } from '../hooks/use-my-assignments';
import { useMyReminders } from '../hooks/use-my-reminders';
import { owedOf, filterAssignments, isVisible, paginate, sortAssignments, summarize, type Filters } from '../rules';

export function MyCampaignsPage() {
  const { t } = useTranslation('myPayments');
  const toast = useToast();
  const { state, reload } = useMyAssignments();
  const superAdmin = useIsSuperAdmin();
  const reminders = useMyReminders(state.status === 'ready' ? state.loadedAt : null);
  const [filters, setFilters] = useState<Filters>({ status: 'ALL', search: '' });
  const [page, setPage] = useState(1);
  const [payingId, setPayingId] = useState<number | null>(null);

  useEffect(() => {
    document.title = `${t('title')} · ${t('portal:appTitle')}`;
  }, [t]);

  const now = state.status === 'ready' ? state.loadedAt : 0;
  const visible = useMemo(() => (state.status === 'ready' ? sortAssignments(state.items.filter(isVisible), now) : []), [state, now]);
  const summary = useMemo(() => summarize(visible, now), [visible, now]);
  const filtered = useMemo(() => filterAssignments(visible, filters, now), [visible, filters, now]);
  const current = paginate(filtered, page);

  const changeFilters = (f: Filters) => {
    setFilters(f);
    setPage(1);
  };

  const pay = async (a: MyAssignment) => {
    setPayingId(a.id);
    try {
      window.location.href = await createPaymentLink(a, owedOf(a), t('errors.noPaymentUrl'));
    } catch (err) {
      toast.show({ kind: 'error', title: t('errors.paymentLinkFailed'), message: payErrorMessage(err, t) });
      setPayingId(null);
    }
  };

  return (
    <div className="page" data-testid="my-campaigns">
      <div className="page-head">
        <h1>{t('title')}</h1>
        <p className="muted">{t('subtitle')}</p>
      </div>

      <div className="notice notice-info" data-testid="access-notice">
        <InfoIcon className="notice-icon" />
        <div>
          <strong>{t('notices.accessTitle')}</strong>
          <div>{t('notices.access')}</div>
        </div>
      </div>
      {superAdmin ? (
        <div className="notice notice-admin" data-testid="super-admin-notice">
          <ShieldIcon className="notice-icon" />
          <div>
            <strong>{t('notices.superAdminTitle')}</strong>
            <div>{t('notices.superAdmin')}</div>
          </div>
        </div>
      ) : null}

      {state.status === 'loading' ? (
        <div className="card">
          <LoadingState />
        </div>
      ) : state.status === 'error' ? (
        <div className="card">
          <ErrorState
            title={t('errors.loadError')}
            message={state.message}
            actions={
              <button type="button" className="btn btn-primary" onClick={reload}>
                {t('portal:common.retry')}
              </button>
            }
          />
        </div>
      ) : (
        <>
          <MoneyNotices assignments={visible} />
          <ReminderNotices reminders={reminders} assignments={visible} payingId={payingId} onPay={pay} />
          <StatTiles summary={summary} />
          <div className="card">
            {visible.length === 0 ? (
              <EmptyState title={t('empty.title')} message={t('empty.message')} />
            ) : (
              <>
                <AssignmentFilters value={filters} onChange={changeFilters} />
                {filtered.length === 0 ? (
                  <EmptyState title={t('empty.filteredTitle')} message={t('empty.filteredMessage')}>
                    <button type="button" className="btn btn-default" onClick={() => changeFilters({ status: 'ALL', search: '' })}>
                      {t('filters.clear')}
                    </button>
                  </EmptyState>
                ) : (
                  <>
                    <AssignmentsTable items={current.items} now={now} payingId={payingId} onPay={pay} />
                    <Pagination
                      page={current.page}
                      totalPages={current.totalPages}
                      total={current.total}
                      from={current.from}
                      to={current.to}
                      onChange={setPage}
                    />
                  </>
                )}
              </>
            )}
          </div>
        </>
      )}
    </div>
  );
}

/** 001 §8: a missing assignment and a payment-system failure have their own texts; otherwise the server's message. */
function payErrorMessage(err: unknown, t: (key: string) => string): string {
  if (err instanceof ApiError) {
    if (err.status === 404) return t('errors.assignmentNotFound');
    if (err.status >= 500 && err.message.startsWith('HTTP error!')) return t('errors.paymentSystemError');
  }
  return err instanceof Error ? err.message : String(err);
}
