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
 * Keyed by database too: user ids of two databases in one process (tests) must not meet.
 */
let caches = new WeakMap<Db, Map<number, Cached>>();

/**
 * Families whose access tokens are refused at once, with the time after which every access
 * token of the family has expired anyway (so the entry can be forgotten).
 */
const revokedFamilies = new Map<string, number>();
const KEEP_REVOKED_MS = 24 * 3600_000;

export function invalidateActors(): void {
  caches = new WeakMap();
}

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
export function loadActor(db: Db, userId: number): (Actor & { grants: UserRoleGrant[] }) | null {
  let perDb = caches.get(db);
  if (!perDb) caches.set(db, (perDb = new Map()));
  let c = perDb.get(userId);
  if (!c) {
    const u = db.select({ id: users.id, email: users.email, isActive: users.isActive, mustChangePassword: users.mustChangePassword }).from(users).where(eq(users.id, userId)).get();
    if (!u) return null;
    const grants = loadRoleGrants(db, userId);
    c = { actor: { id: u.id, email: u.email, roles: grants, grants, isSuperAdmin: isSuperAdmin(grants), mustChangePassword: u.mustChangePassword }, isActive: u.isActive };
    perDb.set(userId, c);
  }
  return c.isActive ? c.actor : null;
}
