/**
 * The organization the admin works in (000 §6: permissions are checked per organization context).
 * null is the global context ("Toàn hệ thống"). The choice lives in localStorage so the
 * accessControlProvider, which runs outside React, reads the same value.
 */
import type { PermissionsResponse } from '@doanhoi/shared';
import { useCustom, useKeys, usePermissions, type BaseRecord } from '@refinedev/core';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type PropsWithChildren } from 'react';
import { ANYWHERE, useAllowedQuery } from '../components/permission-guard/use-allowed';
import { firstUnitOf, session } from '../providers';

export interface AccessibleOrganization {
  id: number;
  name: string;
  code: string | null;
  type: string;
  parentId: number | null;
}

interface CurrentOrganizationValue {
  organizationId: number | null;
  setOrganizationId: (id: number | null) => void;
  /** The first organizations of the picker (PICKER_LIMIT), and the current one; the picker searches the rest on the server. */
  organizations: AccessibleOrganization[];
  organizationsLoading: boolean;
  /** organizations.access somewhere: only then is there anything to pick (and may /organizations/accessible be asked). */
  mayPickOrganization: boolean;
  /** organizations.access globally: only then is "Toàn hệ thống" a context to work in (issue 25 item 11). */
  mayPickGlobal: boolean;
}

/** How many organizations a picker loads at once (a super admin sees 5,000: 516 KB when loaded whole). */
export const PICKER_LIMIT = 50;

const CurrentOrganizationContext = createContext<CurrentOrganizationValue | null>(null);

export function CurrentOrganizationProvider({ children }: PropsWithChildren) {
  const [organizationId, setId] = useState<number | null>(() => session.organizationId());
  const queryClient = useQueryClient();
  const { keys } = useKeys();

  const permissionsQuery = usePermissions<PermissionsResponse | null>({
    params: { organizationId },
    options: { queryKey: [...keys().auth().action('permissions').get(), organizationId ?? 'global'] },
  });
  const permissions = permissionsQuery.isError ? null : (permissionsQuery.data ?? null);
  // Asked of the access-control provider like every right: without organizations.access anywhere the
  // API would refuse the picker's list (403); without it globally "Toàn hệ thống" is not a context.
  const anywhere = useAllowedQuery('organizations.access', ANYWHERE);
  const global = useAllowedQuery('organizations.access', { organizationId: null });
  const mayPickOrganization = anywhere.allowed;
  const mayPickGlobal = global.allowed;
  // The start-up moves below wait for both answers: "not yet answered" must not read as "may not".
  const rightsKnown = !anywhere.loading && !global.loading;

  // The route may not exist on every server yet; a failure just means "no organizations to pick".
  const { query: orgQuery, result: orgResult } = useCustom<BaseRecord>({
    url: '/api/organizations/accessible',
    method: 'get',
    // Only units the caller can act in: not the parents it merely belongs to, whose context empties the menu.
    config: { query: { limit: PICKER_LIMIT, actionable: 'true' } },
    errorNotification: false,
    queryOptions: { retry: false, staleTime: 5 * 60_000, enabled: mayPickOrganization },
  });
  // The current organization may lie beyond the first page: ask for it by id (also tells whether it is still visible).
  const { query: currentQuery, result: currentResult } = useCustom<BaseRecord>({
    url: '/api/organizations/accessible',
    method: 'get',
    config: { query: { ids: String(organizationId ?? 0), actionable: 'true' } },
    errorNotification: false,
    queryOptions: { retry: false, staleTime: 5 * 60_000, enabled: mayPickOrganization && organizationId != null },
  });
  const current = useMemo(
    () => (organizationId != null && Array.isArray(currentResult.data) ? (currentResult.data as AccessibleOrganization[]) : []),
    [organizationId, currentResult.data],
  );
  const organizations = useMemo(() => {
    const first = Array.isArray(orgResult.data) ? (orgResult.data as AccessibleOrganization[]) : [];
    return [...current.filter((c) => !first.some((o) => o.id === c.id)), ...first];
  }, [orgResult.data, current]);

  useEffect(() => {
    // 000 §8: a failed permissions load is logged and leaves no roles or permissions.
    if (permissionsQuery.isError) console.error('[permissions] load failed', permissionsQuery.error);
  }, [permissionsQuery.isError, permissionsQuery.error]);

  const setOrganizationId = useCallback(
    (id: number | null) => {
      session.setOrganizationId(id);
      setId(id);
      // Refine caches every can() answer; they were computed for the previous organization.
      void queryClient.invalidateQueries({ queryKey: keys().access().get() });
    },
    [queryClient, keys],
  );

  // Where someone without organizations.access globally starts (the providers read the roles for it).
  const firstUnit = useMemo(() => firstUnitOf(permissions), [permissions]);

  useEffect(() => {
    // A remembered organization the user can no longer act in (one they merely belong to, chosen
    // before this rule) falls back: to the global context when they may work there, else to their
    // first unit (only on a fresh answer: a failed or stale list says nothing about it).
    if (!rightsKnown) return;
    if (organizationId != null && currentQuery.isSuccess && !currentQuery.isFetching && !current.some((o) => o.id === organizationId)) {
      setOrganizationId(mayPickGlobal || !permissions || firstUnit === organizationId ? null : firstUnit);
    }
  }, [
    organizationId,
    current,
    currentQuery.isSuccess,
    currentQuery.isFetching,
    setOrganizationId,
    mayPickGlobal,
    permissions,
    firstUnit,
    rightsKnown,
  ]);

  useEffect(() => {
    // Without organizations.access globally the global context is not offered (it empties the
    // menu), even when chosen before a reload: start in the organization of their first role.
    if (organizationId != null || !permissions || !rightsKnown || mayPickGlobal) return;
    if (firstUnit != null) setOrganizationId(firstUnit);
  }, [organizationId, permissions, mayPickGlobal, firstUnit, setOrganizationId, rightsKnown]);

  const value = useMemo<CurrentOrganizationValue>(
    () => ({
      organizationId,
      setOrganizationId,
      organizations,
      organizationsLoading: orgQuery.isLoading,
      mayPickOrganization,
      mayPickGlobal,
    }),
    [organizationId, setOrganizationId, organizations, orgQuery.isLoading, mayPickOrganization, mayPickGlobal],
  );
  return <CurrentOrganizationContext.Provider value={value}>{children}</CurrentOrganizationContext.Provider>;
}

export function useCurrentOrganization(): CurrentOrganizationValue {
  const value = useContext(CurrentOrganizationContext);
  if (!value) throw new Error('useCurrentOrganization must be used within a CurrentOrganizationProvider');
  return value;
}
