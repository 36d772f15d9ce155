import { useInvalidateAuthStore } from '@refinedev/core';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { exchangeGoogleCode, session } from '../../providers';
import { StartupScreen } from '../startup';

/**
 * 000 §4 "Auth callback": the backend's Google flow lands here with a one-time code or an error.
 * Tokens in the URL are never taken (issue 25 item 9: anyone could send a link that signs the
 * visitor into the sender's account); the code is exchanged by POST from this browser.
 */
export function AuthCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const invalidateAuth = useInvalidateAuthStore();
  const started = useRef(false);

  useEffect(() => {
    // React's strict mode runs effects twice in development; the tokens must be used once.
    if (started.current) return;
    started.current = true;
    const home = (error?: string) => navigate(error ? `/?error=${encodeURIComponent(error)}` : '/', { replace: true });
    const error = params.get('error');
    const code = params.get('code');
    if (error) {
      void home(error);
      return;
    }
    if (!code || params.has('token') || params.has('refresh_token')) {
      void home('invalid_callback');
      return;
    }
    exchangeGoogleCode(code)
      .then(() => invalidateAuth())
      .then(() => setTimeout(() => home(), 100))
      .catch(() => {
        session.clear();
        home('callback_failed');
      });
  }, [params, navigate, invalidateAuth]);

  return <StartupScreen />;
}
