import type { OrganizationDetail } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Result, Spin } from 'antd';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { useOrganizationRead, useRowRightsLoading } from './data';

/** The organization named by the route's last {type}/{code} pair (000 §2 detail and member routes). */
export function useRouteOrganization() {
  const { type, code, parentType, parentCode } = useParams();
  const { query, data } = useOrganizationRead<OrganizationDetail>(`/by-type-code/${type}/${encodeURIComponent(code ?? '')}`, {
    enabled: Boolean(type && code),
    retry: false,
  });
  /** The route prefix of this organization's own pages. */
  const base =
    parentType && parentCode
      ? `/organizations/${parentType}/${encodeURIComponent(parentCode)}/${type}/${encodeURIComponent(code ?? '')}`
      : `/organizations/${type}/${encodeURIComponent(code ?? '')}`;
  return { query, org: data, base, nested: Boolean(parentType) };
}

export interface RouteOrganization {
  org: OrganizationDetail;
  /** Its ancestors' ids (nearest last), the context its rights are checked in. */
  ancestorIds: number[];
  base: string;
}

/**
 * What a unit's detail and members pages share: its organization loaded (a spinner meanwhile, with
 * the rights its rows are checked by), or "not found"; then the page itself. Only the first load
 * shows the spinner: once the page is up, a refetch (or a failed one) keeps it mounted, so a search
 * or a selection made in it survives.
 */
export function WithRouteOrganization({ children }: { children: (route: RouteOrganization) => ReactNode }) {
  const t = useTranslate();
  const { query, org, base } = useRouteOrganization();
  const rightsLoading = useRowRightsLoading();
  // The rights are read once and stay cached, so they too hold only the first load.
  if (rightsLoading || (!org && query.isLoading)) return <Spin />;
  if (!org)
    return (
      <div data-testid="org-not-found">
        <Result status="404" title={t('organizations:notFound')} />
      </div>
    );
  const ancestorIds = org.breadcrumb.map((b) => b.id).filter((id) => id !== org.id);
  return <>{children({ org, ancestorIds, base })}</>;
}
