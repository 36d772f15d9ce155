import { hasPermission, type MyOrganizations } from '@doanhoi/shared';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../providers/http';
import { fetchPermissions, toGrants } from '../../providers/permissions';

/**
 * Per-organization answers for the organization screens: the 000 §6 rule evaluated in each row's
 * own context (its id and its ancestors' ids, known from the tree), and the caller's memberships.
 */
export function useOrgAccess() {
  const permissions = useQuery({ queryKey: ['permissions', 'all-roles'], queryFn: () => fetchPermissions(null) });
  const mine = useQuery({
    queryKey: ['auth', 'me', 'organizations'],
    queryFn: () => apiRequest<MyOrganizations>('/auth/me/organizations'),
  });
  const grants = toGrants(permissions.data);
  const memberOf = new Set(mine.data?.organizationIds ?? []);
  return {
    ready: permissions.isSuccess,
    isSuperAdmin: permissions.data?.isSuperAdmin ?? false,
    can: (code: string, organizationId: number, ancestorIds: number[]) => hasPermission(grants, code, { organizationId, ancestorIds }),
    isMember: (organizationId: number) => memberOf.has(organizationId),
  };
}

export type OrgAccess = ReturnType<typeof useOrgAccess>;
