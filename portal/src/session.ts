/**
 * The session in localStorage (000 §9), shared with the admin on the same origin:
 * accessToken, refreshToken and the user object. Only this file touches those keys.
 */
import type { SessionUser } from '@doanhoi/shared';

const ACCESS = 'accessToken';
const REFRESH = 'refreshToken';
const USER = 'user';
/** The admin's working organization; dropped on sign-out as the admin does, so the next user starts fresh. */
const ADMIN_ORGANIZATION = 'currentOrganizationId';

export const session = {
  accessToken: () => localStorage.getItem(ACCESS),
  refreshToken: () => localStorage.getItem(REFRESH),

  user(): SessionUser | null {
    const raw = localStorage.getItem(USER);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as SessionUser;
    } catch {
      return null;
    }
  },

  setTokens(accessToken: string, refreshToken: string) {
    localStorage.setItem(ACCESS, accessToken);
    localStorage.setItem(REFRESH, refreshToken);
  },

  setUser(user: SessionUser) {
    localStorage.setItem(USER, JSON.stringify(user));
  },

  /** Signed in means all three pieces exist (000 §4 "Session"). */
  isComplete(): boolean {
    return Boolean(this.accessToken() && this.refreshToken() && this.user());
  },

  /** After a failed refresh: the three session keys. */
  clear() {
    [ACCESS, REFRESH, USER].forEach((k) => localStorage.removeItem(k));
  },

  /** On an explicit sign-out, also the admin's working organization (as the admin's own sign-out does). */
  signOut() {
    this.clear();
    localStorage.removeItem(ADMIN_ORGANIZATION);
  },
};
