/**
 * The shared session (tokens and user, shared/src/client/session.ts) plus the organization the
 * admin is working in. Only providers and contexts touch these keys.
 */
import { ORGANIZATION_KEY, session as shared } from '@doanhoi/shared/client/session';

export const session = {
  ...shared,

  /** Leaving the admin always forgets the working organization too, so the next user starts fresh. */
  clear: shared.signOut,

  /** null means the global context ("Toàn hệ thống"). */
  organizationId(): number | null {
    const id = Number(localStorage.getItem(ORGANIZATION_KEY));
    return Number.isInteger(id) && id > 0 ? id : null;
  },

  /** 'global' is stored for an explicit global choice, so it is not replaced by the default. */
  setOrganizationId(id: number | null) {
    localStorage.setItem(ORGANIZATION_KEY, id == null ? 'global' : String(id));
  },

  /** Whether the user (or a default) has chosen a context since signing in. */
  organizationChosen(): boolean {
    return localStorage.getItem(ORGANIZATION_KEY) != null;
  },
};
