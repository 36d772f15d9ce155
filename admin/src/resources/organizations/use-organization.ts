import type { OrganizationDetail } from '@doanhoi/shared';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { apiRequest } from '../../providers/http';

/** The organization named by the route's last {type}/{code} pair (000 §2 detail and member routes). */
export function useRouteOrganization() {
  const { type, code, parentType, parentCode } = useParams();
  const query = useQuery({
    queryKey: ['organizations', 'by-type-code', type, code],
    queryFn: () => apiRequest<OrganizationDetail>(`/organizations/by-type-code/${type}/${encodeURIComponent(code ?? '')}`),
    enabled: Boolean(type && code),
    retry: false,
  });
  /** The route prefix of this organization's own pages. */
  const base =
    parentType && parentCode
      ? `/organizations/${parentType}/${encodeURIComponent(parentCode)}/${type}/${encodeURIComponent(code ?? '')}`
      : `/organizations/${type}/${encodeURIComponent(code ?? '')}`;
  return { query, base, nested: Boolean(parentType) };
}
