/** /payment/login: email and password with the shared loginSchema rules, then back to ?to=. */
import { validationKey } from '@doanhoi/shared/client/i18n';
import { session } from '@doanhoi/shared/client/session';
import { useEffect, useState, type FormEvent } from 'react';
import { loadNamespaces, useTranslation } from '../i18n';
import { login } from '../api';
import { AuthCard, AuthField } from '../components/auth-card';
import { Link, navigate, Redirect, useLocation } from '../router';
import { changePasswordUrl, safeRedirect } from '../rules';

type Field = 'email' | 'password';

/** The forgotten-password page, with the e-mail already typed here. */
const forgotPasswordUrl = (email: string) => `/payment/forgot-password${email.trim() ? `?email=${encodeURIComponent(email.trim())}` : ''}`;

export function LoginPage() {
  // The validation namespace loads with the schema on the first submit; its messages use `validation:` keys.
  const { t } = useTranslation('portal');
  const { search } = useLocation();
  const target = safeRedirect(search.get('to'));
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    document.title = `${t('login.title')} · ${t('appTitle')}`;
  }, [t]);

  if (session.isComplete() && !submitting) return <Redirect to={target} />;

  const message = (key: string | undefined) => (key ? t(validationKey(key)) : undefined);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setServerError(null);
    // The shared schema (and zod) load on the first submit, not with the page (issue 12: 60 KB first load).
    const [{ loginSchema }] = await Promise.all([import('@doanhoi/shared/schemas/auth'), loadNamespaces(['validation'])]);
    const parsed = loginSchema.safeParse(values);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setSubmitting(true);
    try {
      const res = await login(parsed.data);
      // A temporary password: straight to the change form, then on to where the user was going.
      navigate(res.user.mustChangePassword ? changePasswordUrl(target) : target, { replace: true });
    } catch (err) {
      setServerError(err instanceof Error ? err.message : String(err));
      setSubmitting(false);
    }
  };

  const change = (field: Field) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: e.target.value }));
    if (errors[field]) setErrors((x) => ({ ...x, [field]: undefined }));
  };

  return (
    <AuthCard
      title={t('appTitle')}
      subtitle={t('login.subtitle')}
      error={{ title: t('login.failed'), message: serverError, testId: 'login-error' }}
      form={{ testId: 'portal-login-form', onSubmit: submit, submitting, submitLabel: t('login.submit') }}
      footer={
        <>
          {t('login.adminHint')} <a href="/">{t('nav.admin')}</a>
        </>
      }
    >
      <AuthField
        id="login-email"
        label={t('login.email')}
        error={message(errors.email)}
        type="email"
        name="email"
        autoComplete="username"
        placeholder={t('login.emailPlaceholder')}
        value={values.email}
        onChange={change('email')}
        autoFocus
      />
      <AuthField
        id="login-password"
        label={t('login.password')}
        error={message(errors.password)}
        type="password"
        name="password"
        autoComplete="current-password"
        placeholder={t('login.passwordPlaceholder')}
        value={values.password}
        onChange={change('password')}
      />
      <Link href={forgotPasswordUrl(values.email)} className="login-forgot" data-testid="forgot-password-link">
        {t('forgot.link')}
      </Link>
    </AuthCard>
  );
}
