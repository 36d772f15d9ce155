import { isSuperAdmin } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Actor } from '../lib/context';
import { freshCache } from '../lib/freshness';
import { loadRoleGrants, type UserRoleGrant } from './grants';
import { users } from '../db/tables/users';
import { firstRow } from '../db/engine';

interface Cached {
  actor: Actor & { grants: UserRoleGrant[] };
  isActive: boolean;
}

/**
 * Every request needs the caller's roles; they change rarely. Kept per user until the columns an
 * actor is built from (e-mail, active, must-change-password: 'users:access') or the roles tables
 * are written by anyone (lib/freshness.ts), so a user deactivated or stripped of a role by another
 * connection loses access on the next request, while a phone or name change keeps every actor.
 */
const actors = freshCache<Cached | null>(10_000, ['users:access', 'roles', 'role_permissions', 'permissions', 'user_roles']);

/**
 * Families whose access tokens are refused at once, with the time after which every access
 * token of the family has expired anyway (so the entry can be forgotten).
 */
const revokedFamilies = new Map<string, number>();
const KEEP_REVOKED_MS = 24 * 3600_000;

/** @deprecated Cached actors follow table versions (lib/freshness.ts); kept so older branches build. */
export function invalidateActors(): void {}

export function markFamilyRevoked(familyId: string, until = Date.now() + KEEP_REVOKED_MS): void {
  const now = Date.now();
  if (revokedFamilies.size > 10_000) for (const [f, t] of revokedFamilies) if (t <= now) revokedFamilies.delete(f);
  revokedFamilies.set(familyId, Math.max(until, revokedFamilies.get(familyId) ?? 0));
}

export function forgetRevokedFamilies(): void {
  revokedFamilies.clear();
}

export function isFamilyRevoked(familyId: string): boolean {
  return revokedFamilies.has(familyId);
}

/** The active user with their role grants, or null when unknown or deactivated. */
export async function loadActor(db: Db, userId: number): Promise<(Actor & { grants: UserRoleGrant[] }) | null> {
  const c = await actors.get(db, String(userId), async () => {
    const u = await firstRow(
      db
        .select({ id: users.id, email: users.email, isActive: users.isActive, mustChangePassword: users.mustChangePassword })
        .from(users)
        .where(eq(users.id, userId)),
    );
    if (!u) return null;
    const grants = await loadRoleGrants(db, userId);
    return {
      actor: {
        id: u.id,
        email: u.email,
        roles: grants,
        grants,
        isSuperAdmin: isSuperAdmin(grants),
        mustChangePassword: u.mustChangePassword,
      },
      isActive: u.isActive,
    };
  });
  return c?.isActive ? c.actor : null;
}
