/**
 * /payment/change-password: an account on a temporary password (mustChangePassword) must choose
 * its own before anything else; the API refuses every other route until then.
 */
import { changePasswordSchema } from '@doanhoi/shared';
import { validationKey } from '@doanhoi/shared/client/i18n';
import { session } from '@doanhoi/shared/client/session';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from '../i18n';
import { changePassword, logout, request } from '../api';
import { AuthCard } from '../components/auth-card';
import { fieldErrorsOf } from '../field-errors';
import { usePasswordFields } from '../hooks/use-password-fields';
import { navigate, Redirect, useLocation } from '../router';
import { LOGIN_PATH, safeRedirect } from '../rules';

type Field = 'currentPassword' | 'code' | 'newPassword' | 'confirmPassword';

export function ChangePasswordPage() {
  const { t } = useTranslation(['portal', 'validation']);
  const { search } = useLocation();
  const target = safeRedirect(search.get('to'));
  const { values, setErrors, field } = usePasswordFields<Field>(
    { currentPassword: '', code: '', newPassword: '', confirmPassword: '' },
    'cp',
    (name) => t(`changePassword.${name}`),
  );
  const [codeStatus, setCodeStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [sending, setSending] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    document.title = `${t('changePassword.title')} · ${t('appTitle')}`;
  }, [t]);

  if (!session.isComplete()) return <Redirect to={LOGIN_PATH} />;
  const email = session.user()?.email ?? '';
  // A default password is public: its first change also needs a code only the owner has (issue 25 item 7).
  const needsCode = Boolean(session.user()?.mustChangePassword);

  const sendCode = async () => {
    setSending(true);
    setCodeStatus(null);
    try {
      await request('/auth/change-password/code', { method: 'POST', body: {} });
      setCodeStatus({ ok: true, text: t('changePassword.codeSent', { email }) });
    } catch (err) {
      setCodeStatus({ ok: false, text: err instanceof Error ? err.message : String(err) });
    } finally {
      setSending(false);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setServerError(null);
    const next: Partial<Record<Field, string>> = {};
    const { code, ...rest } = values;
    const parsed = changePasswordSchema.safeParse(needsCode ? { ...rest, code } : rest);
    if (needsCode && !code.trim()) next.code = t('validation:passwordCodeRequired');
    if (!parsed.success) for (const issue of parsed.error.issues) next[issue.path[0] as Field] ??= t(validationKey(issue.message));
    if (values.confirmPassword !== values.newPassword) next.confirmPassword = t('changePassword.mismatch');
    setErrors(next);
    if (!parsed.success || next.confirmPassword) return;
    setSubmitting(true);
    try {
      await changePassword(parsed.data);
      navigate(target, { replace: true });
    } catch (err) {
      // A wrong current password or code is said under its field (issue 26 item 7).
      const onFields = fieldErrorsOf(err, ['currentPassword', 'code', 'newPassword'] as const);
      if (Object.keys(onFields).length) setErrors(onFields);
      else setServerError(err instanceof Error ? err.message : String(err));
      setSubmitting(false);
    }
  };

  return (
    <AuthCard
      title={t('changePassword.title')}
      subtitle={t('changePassword.required')}
      error={{ title: t('changePassword.failed'), message: serverError, testId: 'change-password-error' }}
      form={{ testId: 'portal-change-password-form', onSubmit: submit, submitting, submitLabel: t('changePassword.submit') }}
      footer={
        <button
          type="button"
          className="btn btn-default"
          onClick={async () => {
            await logout();
            navigate(LOGIN_PATH, { replace: true });
          }}
        >
          {t('header.logout')}
        </button>
      }
    >
      {field('currentPassword', 'current-password')}
      {needsCode ? (
        <>
          <p className="muted">{t('changePassword.codeHelp', { email })}</p>
          {field('code', 'one-time-code')}
          <button
            type="button"
            className="btn btn-default"
            disabled={sending}
            onClick={() => void sendCode()}
            data-testid="send-password-code"
          >
            {t('changePassword.sendCode')}
          </button>
          {codeStatus ? (
            <p role="status" className={codeStatus.ok ? 'muted' : 'field-error'}>
              {codeStatus.text}
            </p>
          ) : null}
        </>
      ) : null}
      {field('newPassword', 'new-password')}
      {field('confirmPassword', 'new-password')}
    </AuthCard>
  );
}
