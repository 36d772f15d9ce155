import { Card, Flex, Typography } from 'antd';
import { useTranslate } from '@refinedev/core';
import { useEffect } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { LanguageSwitcher } from '../../components/language-switcher';
import { AppTitle } from '../../components/layout/title';
import { LoginForm } from '../../components/login-form';
import { LoginModal } from '../../components/login-modal';
import { ThemeToggle } from '../../components/theme-toggle';
import { safeRedirect } from '../../providers';
import { CallbackErrorAlert } from './callback-error';

/** The error of a failed Google sign-in, whether on /login itself or inside ?to=/?error=… */
function callbackError(params: URLSearchParams): { code: string | null; nested: boolean } {
  const own = params.get('error');
  if (own) return { code: own, nested: false };
  const to = params.get('to');
  const nested = to ? new URLSearchParams(to.split('?')[1] ?? '').get('error') : null;
  return { code: nested, nested: Boolean(nested) };
}

export function LoginPage() {
  const t = useTranslate();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { code, nested } = callbackError(params);
  const to = params.get('to');
  const unsafeTo = to !== null && safeRedirect(to) !== to;

  useEffect(() => {
    // Returning to "/?error=x" after signing in would show the stale error again, and
    // useLogin follows ?to= as given, so only a same-site path may stay in the URL.
    if (nested) navigate(`/login?error=${encodeURIComponent(code ?? '')}`, { replace: true });
    else if (unsafeTo) navigate('/login', { replace: true });
  }, [nested, unsafeTo, code, navigate]);

  return (
    <main className="login-page">
      {/* The header of a signed-out visitor (000 §2 "Layout"): language, theme and the sign-in button opening the sign-in dialog. */}
      <header className="login-toolbar" data-testid="signed-out-header">
        <LanguageSwitcher />
        <ThemeToggle />
        <LoginModal />
      </header>
      <Card className="login-card">
        <div className="login-heading">
          <AppTitle />
          <Typography.Title level={3}>{t('auth:login.title')}</Typography.Title>
          <Typography.Text type="secondary">{t('auth:login.subtitle')}</Typography.Text>
        </div>
        <CallbackErrorAlert code={code} />
        <Flex vertical gap="middle">
          <LoginForm />
          <Flex justify="center">
            {/* A real link (new tab, copy), followed inside the app. */}
            <Typography.Link
              href="/forgot-password"
              data-testid="forgot-password-link"
              onClick={(e) => {
                if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
                e.preventDefault();
                navigate('/forgot-password');
              }}
            >
              {t('auth:forgot.link')}
            </Typography.Link>
          </Flex>
        </Flex>
      </Card>
    </main>
  );
}

/** A signed-in user opening /login goes on to ?to= or the dashboard. */
export function RedirectSignedIn() {
  const [params] = useSearchParams();
  return <Navigate to={safeRedirect(params.get('to'))} replace />;
}
