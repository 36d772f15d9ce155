/**
 * /payment/reset-password?token=… (issue 30 item 7): the e-mailed link of a member. The token is
 * taken out of the address bar at once; a wrong, used or expired link says so and offers a new
 * one. After the reset every session is gone, this browser's included: sign in again.
 */
import { validationKey } from '@doanhoi/shared/client/i18n';
import { session } from '@doanhoi/shared/client/session';
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError, request } from '../api';
import { AuthCard } from '../components/auth-card';
import { AlertIcon, CheckCircleIcon } from '../components/icons';
import { PageSpinner } from '../components/states';
import { usePasswordFields } from '../hooks/use-password-fields';
import { loadNamespaces, useTranslation } from '../i18n';
import { Link } from '../router';
import { LOGIN_PATH } from '../rules';

type Field = 'password' | 'confirm';

export function ResetPasswordPage() {
  const { t } = useTranslation('portal');
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token'));
  const [state, setState] = useState<'checking' | 'form' | 'done' | 'dead'>(token ? 'checking' : 'dead');
  const { values, setErrors, field } = usePasswordFields<Field>({ password: '', confirm: '' }, 'reset', (name) => t(`reset.${name}`));
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    document.title = `${t('reset.title')} · ${t('appTitle')}`;
  }, [t]);
  useEffect(() => {
    if (window.location.search) window.history.replaceState(null, '', window.location.pathname);
    if (!token) return;
    // A dead link says so before a password is typed; if the check itself fails, the form still decides.
    request('/auth/reset-password/check', { method: 'POST', body: { token }, auth: false })
      .then(() => setState('form'))
      .catch((err: unknown) => setState(err instanceof ApiError && err.status === 400 ? 'dead' : 'form'));
  }, [token]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setServerError(null);
    const [{ resetPasswordSchema }] = await Promise.all([import('@doanhoi/shared/schemas/auth'), loadNamespaces(['validation'])]);
    const parsed = resetPasswordSchema.shape.password.safeParse(values.password);
    const next: Partial<Record<Field, string>> = {};
    if (!parsed.success) next.password = t(validationKey(parsed.error.issues[0]!.message));
    if (values.confirm !== values.password) next.confirm = t('reset.mismatch');
    setErrors(next);
    if (next.password || next.confirm) return;
    setSubmitting(true);
    try {
      await request('/auth/reset-password', { method: 'POST', body: { token, password: values.password }, auth: false });
      // The server ended every session; this browser's tokens are dead too.
      session.signOut();
      setState('done');
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && err.errors?.password) setErrors({ password: err.errors.password[0] });
      else if (err instanceof ApiError && err.status === 400) setState('dead');
      else setServerError(err instanceof Error ? err.message : String(err));
    } finally {
      setSubmitting(false);
    }
  };

  const none = { title: '', message: null, testId: 'reset-error' };
  if (state === 'checking') return <PageSpinner />;
  if (state === 'done') {
    return (
      <AuthCard title={t('reset.doneTitle')} subtitle={t('reset.done')} error={none} footer={null}>
        <div className="notice" role="status" data-testid="reset-done">
          <CheckCircleIcon className="notice-icon" />
          <Link href={LOGIN_PATH} className="btn btn-primary">
            {t('reset.signIn')}
          </Link>
        </div>
      </AuthCard>
    );
  }
  if (state === 'dead') {
    return (
      <AuthCard
        title={t('reset.title')}
        subtitle={t('reset.deadTitle')}
        error={none}
        footer={<Link href={LOGIN_PATH}>{t('forgot.back')}</Link>}
      >
        <div className="notice notice-error" role="alert" data-testid="reset-dead">
          <AlertIcon className="notice-icon" />
          <div>
            <div>{t('reset.dead')}</div>
            <Link href="/payment/forgot-password">{t('reset.newLink')}</Link>
          </div>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={t('reset.title')}
      subtitle={t('reset.subtitle')}
      error={{ title: t('reset.failed'), message: serverError, testId: 'reset-error' }}
      form={{ testId: 'portal-reset-form', onSubmit: submit, submitting, submitLabel: t('reset.submit') }}
      footer={<Link href={LOGIN_PATH}>{t('forgot.back')}</Link>}
    >
      {field('password')}
      <p className="muted">{t('reset.rule')}</p>
      {field('confirm')}
    </AuthCard>
  );
}
