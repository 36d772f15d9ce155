/**
 * The browser session (000 §9): accessToken, refreshToken and the user object in localStorage.
 * The admin and the portal run on the same origin and read the same keys, so signing in to one
 * signs in to the other; only this file names them. localStorage is read on every call (never
 * captured), so tests can swap in a fake.
 */
import type { SessionUser } from '../schemas/auth';

export const SESSION_KEYS = { access: 'accessToken', refresh: 'refreshToken', user: 'user' } as const;
/** The admin's working organization: both apps drop it on sign-out, so the next user starts fresh. */
export const ORGANIZATION_KEY = 'currentOrganizationId';

const accessToken = () => localStorage.getItem(SESSION_KEYS.access);
const refreshToken = () => localStorage.getItem(SESSION_KEYS.refresh);

function user(): SessionUser | null {
  const raw = localStorage.getItem(SESSION_KEYS.user);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as SessionUser;
  } catch {
    return null;
  }
}

/** The three session keys only: what a failed refresh removes. */
function clear() {
  Object.values(SESSION_KEYS).forEach((k) => localStorage.removeItem(k));
}

// Plain functions, no `this`: the admin spreads this object into its own session with extra keys.
export const session = {
  accessToken,
  refreshToken,
  user,

  setTokens(access: string, refresh: string) {
    localStorage.setItem(SESSION_KEYS.access, access);
    localStorage.setItem(SESSION_KEYS.refresh, refresh);
  },

  setUser(u: SessionUser) {
    localStorage.setItem(SESSION_KEYS.user, JSON.stringify(u));
  },

  /** Signed in means all three pieces exist (000 §4 "Session"). */
  isComplete: (): boolean => Boolean(accessToken() && refreshToken() && user()),

  clear,

  /** An explicit sign-out also forgets the admin's working organization. */
  signOut() {
    clear();
    localStorage.removeItem(ORGANIZATION_KEY);
  },
};
