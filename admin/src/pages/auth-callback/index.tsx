import { useInvalidateAuthStore } from '@refinedev/core';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { completeTokenLogin, session } from '../../providers';
import { StartupScreen } from '../startup';

/** 000 §4 "Auth callback": the backend's Google flow lands here with tokens or an error. */
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
    const token = params.get('token');
    const refreshToken = params.get('refresh_token');
    if (error) {
      void home(error);
      return;
    }
    if (!token || !refreshToken) {
      void home('invalid_callback');
      return;
    }
    completeTokenLogin(token, refreshToken)
      .then(() => invalidateAuth())
      .then(() => setTimeout(() => home(), 100))
      .catch(() => {
        session.clear();
        home('callback_failed');
      });
  }, [params, navigate, invalidateAuth]);

  return <StartupScreen />;
}
