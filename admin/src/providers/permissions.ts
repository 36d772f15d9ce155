/**
 * GET /auth/me/permissions per organization context, shared by the authProvider (usePermissions)
 * and the accessControlProvider so both answer from the same response and the same rule (shared check.ts).
 */
import type { OrgContext, PermissionsResponse, RoleGrant } from '@doanhoi/shared';
// The check itself from its own module: the package barrel would evaluate every zod schema (and
// ship zod) on the sign-in page, which loads this provider.
import { hasAllPermissions, hasAnyPermission } from '@doanhoi/shared/permissions/check';
import { apiRequest } from './http';

const cache = new Map<string, Promise<PermissionsResponse>>();
const keyOf = (organizationId: number | null) => String(organizationId ?? 'global');

/** `fresh` skips the cache (the header context refetches on its own schedule and refills it). */
export function fetchPermissions(organizationId: number | null, fresh = false): Promise<PermissionsResponse> {
  const key = keyOf(organizationId);
  const cached = cache.get(key);
  if (cached && !fresh) return cached;
  const query = organizationId ? `?organizationId=${organizationId}` : '';
  const pending = apiRequest<PermissionsResponse>(`/auth/me/permissions${query}`);
  cache.set(key, pending);
  pending.catch(() => cache.delete(key));
  return pending;
}

/** Sign-in and sign-out change whose permissions these are. */
export function clearPermissionsCache() {
  cache.clear();
}

export function toGrants(res: PermissionsResponse | null | undefined): RoleGrant[] {
  return (res?.roles ?? []).map((r) => ({
    name: r.name,
    organizationId: r.organizationId,
    isActive: r.isActive,
    permissions: r.permissions.map((p) => p.code),
  }));
}

export function toContext(res: PermissionsResponse | null | undefined): OrgContext | null {
  return res?.organizationId ? { organizationId: res.organizationId, ancestorIds: res.ancestorIds } : null;
}

export type MatchMode = 'all' | 'any';

/** The 000 §6 rule in the response's organization context: all (default) or any of the codes. */
export function holds(res: PermissionsResponse | null | undefined, codes: readonly string[], mode: MatchMode = 'all'): boolean {
  if (codes.length === 0) return true;
  const check = mode === 'any' ? hasAnyPermission : hasAllPermissions;
  return check(toGrants(res), codes, toContext(res));
}

/**
 * Where someone without organizations.access globally starts: the organization of their first active
 * role that gives it (else of their first active role). The roles come with every context's answer.
 */
export function firstUnitOf(res: PermissionsResponse | null | undefined): number | null {
  const active = (res?.roles ?? []).filter((r) => r.isActive && r.organizationId != null);
  return (active.find((r) => r.permissions.some((p) => p.code === 'organizations.access')) ?? active[0])?.organizationId ?? null;
}
