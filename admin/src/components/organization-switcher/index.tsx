import { ApartmentOutlined } from '@ant-design/icons';
import { useCustom, useTranslate, type BaseRecord } from '@refinedev/core';
import { Select } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { PICKER_LIMIT, useCurrentOrganization, type AccessibleOrganization } from '../../context/current-organization';

const GLOBAL = 'global';

/**
 * Picks the organization whose permissions apply; "all" is the global context (no organization),
 * offered only to holders of organizations.access globally. Lists only units the caller can act in
 * (actionable), never parents it merely belongs to. Shows the first organizations and searches
 * the others on the server as the user types.
 */
export function OrganizationSwitcher() {
  const t = useTranslate();
  const { organizationId, setOrganizationId, organizations, organizationsLoading, mayPickOrganization, mayPickGlobal } =
    useCurrentOrganization();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed.trim()), 250);
    return () => clearTimeout(timer);
  }, [typed]);
  const { query: found, result: foundResult } = useCustom<BaseRecord>({
    url: '/api/organizations/accessible',
    method: 'get',
    config: { query: { search, limit: PICKER_LIMIT, actionable: 'true' } },
    errorNotification: false,
    queryOptions: { enabled: mayPickOrganization && search !== '', retry: false, staleTime: 60_000 },
  });

  const options = useMemo(() => {
    const matches = search !== '' && Array.isArray(foundResult.data) ? (foundResult.data as AccessibleOrganization[]) : organizations;
    const current = organizations.find((o) => o.id === organizationId);
    const shown = current && !matches.some((o) => o.id === current.id) ? [current, ...matches] : matches;
    return [
      ...(mayPickGlobal ? [{ value: GLOBAL, label: t('header.allOrganizations') }] : []),
      ...[...shown].sort((a, b) => a.name.localeCompare(b.name, 'vi')).map((o) => ({ value: String(o.id), label: o.name })),
    ];
  }, [organizations, foundResult.data, search, organizationId, mayPickGlobal, t]);

  // Nothing to pick without organizations.access anywhere (a member): no picker, no refused call.
  if (!mayPickOrganization) return null;
  return (
    <Select
      className="organization-switcher"
      data-testid="organization-switcher"
      aria-label={t('header.organization')}
      suffixIcon={<ApartmentOutlined />}
      loading={organizationsLoading || (search !== '' && found.isFetching)}
      showSearch
      filterOption={false}
      onSearch={setTyped}
      onBlur={() => setTyped('')}
      popupMatchSelectWidth={false}
      value={organizationId == null ? (mayPickGlobal ? GLOBAL : undefined) : String(organizationId)}
      options={options}
      onChange={(value: string) => {
        setTyped('');
        setOrganizationId(value === GLOBAL ? null : Number(value));
      }}
    />
  );
}
