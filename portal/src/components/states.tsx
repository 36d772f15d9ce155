/** Loading, error, empty and not-found blocks shared by the pages. */
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from '../i18n';
import { Link } from '../router';
import { MY_CAMPAIGNS_PATH } from '../rules';
import { AlertIcon, InfoIcon } from './icons';

export function Spinner({ small = false }: { small?: boolean }) {
  return <span className={small ? 'spinner spinner-small' : 'spinner'} aria-hidden="true" />;
}

/** Before translations load: no text can be shown yet. */
export function PageSpinner() {
  return (
    <div className="page-spinner" role="status" aria-busy="true">
      <Spinner />
    </div>
  );
}

export function LoadingState({ label }: { label?: string }) {
  const { t } = useTranslation('portal');
  return (
    <div className="state" role="status" aria-live="polite" data-testid="loading-state">
      <Spinner />
      <p>{label ?? t('common.loading')}</p>
    </div>
  );
}

export function ErrorState({ title, message, actions }: { title: string; message?: string; actions?: ReactNode }) {
  return (
    <div className="state state-error" role="alert" data-testid="error-state">
      <AlertIcon className="state-icon" />
      <h2>{title}</h2>
      {message ? <p className="muted">{message}</p> : null}
      {actions ? <div className="actions no-print">{actions}</div> : null}
    </div>
  );
}

export function EmptyState({ title, message, children }: { title: string; message?: string; children?: ReactNode }) {
  return (
    <div className="state" data-testid="empty-state">
      <InfoIcon className="state-icon" />
      <h2>{title}</h2>
      {message ? <p className="muted">{message}</p> : null}
      {children}
    </div>
  );
}

export function NotFound() {
  const { t } = useTranslation('portal');
  useEffect(() => {
    document.title = `${t('notFound.title')} · ${t('appTitle')}`;
  }, [t]);
  return (
    <div className="card">
      <ErrorState
        title={t('notFound.title')}
        message={t('notFound.message')}
        actions={
          <Link className="btn btn-primary" href={MY_CAMPAIGNS_PATH}>
            {t('nav.myPayments')}
          </Link>
        }
      />
    </div>
  );
}
