import { isSuperAdmin } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Actor } from '../lib/context';
import { loadRoleGrants, type UserRoleGrant } from '../roles/grants';
import { users } from '../users/schema';

interface Cached {
  actor: Actor & { grants: UserRoleGrant[] };
  isActive: boolean;
}

/**
 * Every request needs the caller's roles; they change rarely. Cache them per user and drop the
 * cache on any write to users, roles, role permissions or user roles (invalidateActors()).
 */
const cache = new Map<number, Cached>();
const revokedFamilies = new Set<string>();

export function invalidateActors(): void {
  cache.clear();
}

export function markFamilyRevoked(familyId: string): void {
  revokedFamilies.add(familyId);
}

export function isFamilyRevoked(familyId: string): boolean {
  return revokedFamilies.has(familyId);
}

/** The active user with their role grants, or null when unknown or deactivated. */
export function loadActor(db: Db, userId: number): (Actor & { grants: UserRoleGrant[] }) | null {
  let c = cache.get(userId);
  if (!c) {
    const u = db.select({ id: users.id, email: users.email, isActive: users.isActive }).from(users).where(eq(users.id, userId)).get();
    if (!u) return null;
    const grants = loadRoleGrants(db, userId);
    c = { actor: { id: u.id, email: u.email, roles: grants, grants, isSuperAdmin: isSuperAdmin(grants) }, isActive: u.isActive };
    cache.set(userId, c);
  }
  return c.isActive ? c.actor : null;
}
