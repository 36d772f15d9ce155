/**
 * Sign-in state for Refine (000 §4 "Session"). Tokens are attached by http.ts, never here;
 * every method resolves with a Refine result object instead of throwing.
 */
import type { AuthProvider } from '@refinedev/core';
import type { IssuedPasswordCode, LoginResponse, PasswordCodeSent, PermissionsResponse, SessionUser } from '@doanhoi/shared';
import { ApiError, apiRequest } from './http';
import { i18n } from './i18n';
import { clearPermissionsCache, fetchPermissions } from './permissions';
import { session } from './session';

export interface LoginParams {
  email: string;
  password: string;
}

/** Only same-site paths are followed after sign-in, so ?to= cannot send users elsewhere. */
export function safeRedirect(to: string | null | undefined): string {
  // Browsers read '/\\host' like '//host': both leave the site, as do control characters.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return to && to.startsWith('/') && !to.startsWith('//') && !to.startsWith('/\\') && !/[\u0000-\u001f]/.test(to) ? to : '/';
}

async function loadProfile(fallback?: SessionUser): Promise<SessionUser> {
  try {
    return await apiRequest<SessionUser>('/auth/profile');
  } catch (err) {
    if (fallback) return fallback;
    throw err;
  }
}

/**
 * The Google callback hands us a one-time code, never tokens (issue 25 item 9): this browser
 * exchanges it by POST (a cookie set when it started the sign-in binds the code to it).
 */
export async function exchangeGoogleCode(code: string): Promise<SessionUser> {
  // Without the refresh path: a bad code must end in callback_failed, not a trip to /login.
  const res = await apiRequest<LoginResponse>('/auth/google/exchange', { method: 'POST', body: { code }, auth: false });
  session.setTokens(res.accessToken, res.refreshToken);
  clearPermissionsCache();
  const user = await loadProfile(res.user);
  session.setUser(user);
  return user;
}

/** An administrator issues a code for a user on a default password (shown once). */
export async function issuePasswordCode(userId: number): Promise<IssuedPasswordCode> {
  return apiRequest<IssuedPasswordCode>('/auth/password-codes', { method: 'POST', body: { userId } });
}

/** E-mails the signed-in account the code its default password's first change needs (issue 25 item 7). */
export async function requestPasswordCode(): Promise<PasswordCodeSent> {
  return apiRequest<PasswordCodeSent>('/auth/change-password/code', { method: 'POST', body: {} });
}

export const authProvider: AuthProvider = {
  login: async ({ email, password }: LoginParams) => {
    try {
      const res = await apiRequest<LoginResponse>('/auth/login', { method: 'POST', body: { email, password }, auth: false });
      session.setTokens(res.accessToken, res.refreshToken);
      clearPermissionsCache();
      // The full profile may carry more than the login reply; keep the basic user if it fails.
      session.setUser(await loadProfile(res.user));
      return { success: true, redirectTo: '/' };
    } catch (err) {
      const message = err instanceof Error && err.message ? err.message : i18n.t('auth:login.failed');
      return {
        success: false,
        error: { name: i18n.t('auth:login.failed'), message, statusCode: err instanceof ApiError ? err.statusCode : 0 },
      };
    }
  },

  logout: async () => {
    // The server call may fail (expired session); the local session is cleared regardless.
    if (session.accessToken()) await apiRequest('/auth/logout', { method: 'POST' }).catch(() => undefined);
    session.clear();
    clearPermissionsCache();
    return { success: true, redirectTo: '/login' };
  },

  check: async () => (session.isComplete() ? { authenticated: true } : { authenticated: false, logout: true, redirectTo: '/login' }),

  onError: async (error: { statusCode?: number; status?: number }) => {
    const status = error?.statusCode ?? error?.status;
    // http.ts already tried a refresh; a 401 that still gets here means the session is gone.
    return status === 401 ? { logout: true, redirectTo: '/login' } : {};
  },

  getIdentity: async () => session.user(),

  /** The header context passes the current organization; null asks for the global context. */
  getPermissions: async (params?: Record<string, unknown>): Promise<PermissionsResponse | null> => {
    const id = typeof params?.organizationId === 'number' ? params.organizationId : null;
    return fetchPermissions(id, true);
  },

  updatePassword: async (params: { currentPassword: string; newPassword: string; code?: string }) => {
    try {
      await apiRequest('/auth/change-password', {
        method: 'POST',
        body: { currentPassword: params.currentPassword, newPassword: params.newPassword, ...(params.code ? { code: params.code } : {}) },
      });
      const user = session.user();
      if (user) session.setUser({ ...user, mustChangePassword: false });
      // Asked while the password had to change, the permissions were refused (403): ask again.
      clearPermissionsCache();
      return { success: true, successNotification: { message: i18n.t('auth:changePassword.success') } };
    } catch (err) {
      return {
        success: false,
        // The refusal's field (a wrong current password, a wrong code) goes with it: the dialog says it there.
        error: {
          name: i18n.t('auth:changePassword.failed'),
          message: err instanceof Error ? err.message : '',
          statusCode: 0,
          errors: err instanceof ApiError ? err.errors : undefined,
        },
      };
    }
  },
};
