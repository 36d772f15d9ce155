/**
 * The organization screens' reads that are not a resource list (the tree, one node's children, a
 * unit by type and code, its statistics, a removal plan): useCustom on /api/organizations/…, each
 * screen showing its own error. One refresh re-reads them all after a change.
 */
import type { MyOrganizations } from '@doanhoi/shared';
import { useInvalidate } from '@refinedev/core';
import { useCallback } from 'react';
import { useRead, type ReadOptions } from '../../components/data/use-read';
import { useAllowedQuery } from '../../components/permission-guard/use-allowed';
import { API_URL } from '../../providers/http';

const BASE = `${API_URL}/organizations`;

/** GET /api/organizations{path}. */
export function useOrganizationRead<T>(path: string, options?: ReadOptions) {
  return useRead<T>(`/organizations${path}`, options);
}

/** The caller's own memberships (the tree's "member" badge, and who may open a unit's details). */
export function useMyOrganizations() {
  return useRead<MyOrganizations>('/auth/me/organizations').data;
}

/** The header's organization picker reads /organizations/accessible too; it is not refreshed by changes made here (as before). */
function isOrganizationRead(key: readonly unknown[]): boolean {
  const url = (key[3] as { url?: unknown } | undefined)?.url;
  return key[2] === 'custom' && typeof url === 'string' && url.startsWith(`${BASE}/`) && !url.startsWith(`${BASE}/accessible`);
}

/**
 * Re-reads every organization read on screen after a change. `drop`: only mark them stale, for a
 * deleted unit whose own page would answer 404 if read again while the router leaves it.
 */
export function useRefreshOrganizations() {
  const invalidate = useInvalidate();
  return useCallback(
    (drop = false) =>
      void invalidate({
        invalidates: ['all'],
        invalidationFilters: { type: 'all', refetchType: drop ? 'none' : 'active', predicate: (q) => isOrganizationRead(q.queryKey) },
      }),
    [invalidate],
  );
}

/**
 * Whether the caller's roles everywhere have been read: every row's rights are answered from them,
 * so the organization screens wait for this once instead of each button flickering in.
 */
export function useRowRightsLoading(): boolean {
  return useAllowedQuery('organizations.access', { organizationId: 0, ancestorIds: [] }).loading;
}
