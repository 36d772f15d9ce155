/**
 * /payment/forgot-password (issue 30 item 7): asks for a reset link. Whatever the e-mail, the page
 * says the same thing afterwards (the API answers the same 202), so it tells nobody which accounts exist.
 */
import { validationKey } from '@doanhoi/shared/client/i18n';
import { useEffect, useState, type FormEvent } from 'react';
import { request } from '../api';
import { AuthCard, AuthField } from '../components/auth-card';
import { CheckCircleIcon } from '../components/icons';
import { loadNamespaces, useTranslation } from '../i18n';
import { Link, useLocation } from '../router';
import { LOGIN_PATH } from '../rules';

export function ForgotPasswordPage() {
  const { t } = useTranslation('portal');
  const { search } = useLocation();
  const [email, setEmail] = useState(search.get('email') ?? '');
  const [error, setError] = useState<string | undefined>();
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [sent, setSent] = useState(false);

  useEffect(() => {
    document.title = `${t('forgot.title')} · ${t('appTitle')}`;
  }, [t]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setServerError(null);
    const [{ forgotPasswordSchema }] = await Promise.all([import('@doanhoi/shared/schemas/auth'), loadNamespaces(['validation'])]);
    const parsed = forgotPasswordSchema.safeParse({ email });
    if (!parsed.success) {
      setError(t(validationKey(parsed.error.issues[0]!.message)));
      return;
    }
    setError(undefined);
    setSubmitting(true);
    try {
      await request('/auth/forgot-password', { method: 'POST', body: parsed.data, auth: false });
      setSent(true);
    } catch (err) {
      setServerError(err instanceof Error ? err.message : String(err));
    } finally {
      setSubmitting(false);
    }
  };

  const back = <Link href={LOGIN_PATH}>{t('forgot.back')}</Link>;
  if (sent) {
    return (
      <AuthCard
        title={t('forgot.title')}
        subtitle={t('forgot.sentTitle')}
        error={{ title: '', message: null, testId: 'forgot-error' }}
        footer={back}
      >
        <div className="notice" role="status" data-testid="forgot-sent">
          <CheckCircleIcon className="notice-icon" />
          <div>{t('forgot.sent')}</div>
        </div>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title={t('forgot.title')}
      subtitle={t('forgot.subtitle')}
      error={{ title: t('forgot.failed'), message: serverError, testId: 'forgot-error' }}
      form={{ testId: 'portal-forgot-form', onSubmit: submit, submitting, submitLabel: t('forgot.submit') }}
      footer={back}
    >
      <AuthField
        id="forgot-email"
        label={t('login.email')}
        error={error}
        type="email"
        name="email"
        autoComplete="username"
        placeholder={t('login.emailPlaceholder')}
        value={email}
        onChange={(e) => {
          setEmail(e.target.value);
          setError(undefined);
        }}
        autoFocus
      />
    </AuthCard>
  );
}
