/**
 * The session lives in localStorage (000 §9): accessToken, refreshToken and the user object,
 * plus the organization the admin is working in. Only providers and contexts touch these keys.
 */
import type { SessionUser } from '@doanhoi/shared';

const ACCESS = 'accessToken';
const REFRESH = 'refreshToken';
const USER = 'user';
const ORGANIZATION = 'currentOrganizationId';

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

  clear() {
    [ACCESS, REFRESH, USER, ORGANIZATION].forEach((k) => localStorage.removeItem(k));
  },

  /** null means the global context ("Toàn hệ thống"). */
  organizationId(): number | null {
    const id = Number(localStorage.getItem(ORGANIZATION));
    return Number.isInteger(id) && id > 0 ? id : null;
  },

  /** 'global' is stored for an explicit global choice, so it is not replaced by the default. */
  setOrganizationId(id: number | null) {
    localStorage.setItem(ORGANIZATION, id == null ? 'global' : String(id));
  },

  /** Whether the user (or a default) has chosen a context since signing in. */
  organizationChosen(): boolean {
    return localStorage.getItem(ORGANIZATION) != null;
  },
};
