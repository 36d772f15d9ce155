import { fullName, type OrganizationDetail, type OrganizationOfficer } from '@doanhoi/shared';
import { useTable } from '@refinedev/antd';
import { useTranslate } from '@refinedev/core';
import { Card, Grid, Space, Switch, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { RoleScopeTag } from '../../components/role-scope';

function OfficersTable({ org, inherited }: { org: OrganizationDetail; inherited: boolean }) {
  const t = useTranslate();
  const { tableProps } = useTable<OrganizationOfficer>({
    resource: `organizations/${org.id}/officers`,
    syncWithLocation: false,
    meta: { query: { inherited: String(inherited) } },
  });
  // On a phone the role column was squeezed past its tags: one column there, the roles under the name.
  const phone = !Grid.useBreakpoint().sm;
  const person = (o: OrganizationOfficer) => (
    <Space direction="vertical" size={0}>
      <Typography.Text strong>{fullName(o.user)}</Typography.Text>
      <Typography.Text type="secondary">{o.user.code}</Typography.Text>
    </Space>
  );
  const role = (o: OrganizationOfficer) => (
    <Space direction="vertical" size={2}>
      <RoleScopeTag role={o.role.displayName} organization={o.organization} inactive={!o.role.isActive} />
      {o.inherited && <Tag data-testid="officer-inherited">{t('organizations:officers.fromAbove', { org: o.organization.name })}</Tag>}
    </Space>
  );
  const columns: TableColumnsType<OrganizationOfficer> = phone
    ? [
        {
          title: t('organizations:officers.name'),
          key: 'officer',
          render: (_, o) => (
            <Space direction="vertical" size={4}>
              {person(o)}
              {role(o)}
            </Space>
          ),
        },
      ]
    : [
        { title: t('organizations:officers.name'), key: 'name', render: (_, o) => person(o) },
        { title: t('organizations:officers.role'), key: 'role', render: (_, o) => role(o) },
        { title: t('organizations:officers.email'), key: 'email', responsive: ['md'], render: (_, o) => o.user.email },
      ];
  return (
    <Table
      {...tableProps}
      rowKey="id"
      size="small"
      data-testid="officers-table"
      locale={{ emptyText: t('organizations:officers.empty') }}
      columns={columns}
    />
  );
}

/**
 * "Cán bộ phụ trách" on a unit's detail page (issue 26 item 3): who holds which role scoped to the
 * unit, and on request the roles held in the units above it (which apply here too), labelled.
 */
export function OrganizationOfficersCard({ org }: { org: OrganizationDetail }) {
  const t = useTranslate();
  const [inherited, setInherited] = useState(false);
  return (
    <Card
      title={t('organizations:officers.title')}
      className="section-title"
      size="small"
      data-testid="org-officers"
      extra={
        <Space size={6}>
          <Switch
            size="small"
            checked={inherited}
            onChange={setInherited}
            data-testid="officers-inherited"
            aria-label={t('organizations:officers.inherited')}
          />
          <Typography.Text className="officers-inherited-label">{t('organizations:officers.inherited')}</Typography.Text>
        </Space>
      }
    >
      {/* Remounted per choice: a fresh first page and its own query. */}
      <OfficersTable key={String(inherited)} org={org} inherited={inherited} />
    </Card>
  );
}
