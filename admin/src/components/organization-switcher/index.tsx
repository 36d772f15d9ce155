import { ApartmentOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Select } from 'antd';
import { useMemo } from 'react';
import { useCurrentOrganization } from '../../context/current-organization';

const GLOBAL = 'global';

/** Picks the organization whose permissions apply; "all" is the global context (no organization). */
export function OrganizationSwitcher() {
  const t = useTranslate();
  const { organizationId, setOrganizationId, organizations, organizationsLoading } = useCurrentOrganization();

  const options = useMemo(
    () => [
      { value: GLOBAL, label: t('header.allOrganizations') },
      ...[...organizations]
        .sort((a, b) => a.name.localeCompare(b.name, 'vi'))
        .map((o) => ({ value: String(o.id), label: o.name })),
    ],
    [organizations, t],
  );

  return (
    <Select
      className="organization-switcher"
      data-testid="organization-switcher"
      aria-label={t('header.organization')}
      suffixIcon={<ApartmentOutlined />}
      loading={organizationsLoading}
      showSearch
      optionFilterProp="label"
      popupMatchSelectWidth={false}
      value={organizationId == null ? GLOBAL : String(organizationId)}
      options={options}
      onChange={(value: string) => setOrganizationId(value === GLOBAL ? null : Number(value))}
    />
  );
}
