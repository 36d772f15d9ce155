import { formatDate, fullName, type OrganizationDetail, type OrganizationMember } from '@doanhoi/shared';
import { DeleteOutlined } from '@ant-design/icons';
import { useTable } from '@refinedev/antd';
import { useCan, useInvalidate, useTranslate } from '@refinedev/core';
import { useQueryClient } from '@tanstack/react-query';
import { Breadcrumb, Button, Flex, Result, Space, Spin, Table, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { ListSearch, tableSearch } from '../../components/list-search';
import { MemberToolbar } from './member-actions';
import { RemoveMemberModal } from './remove-member';
import { OrganizationStatsCard } from './stats';
import { useOrgAccess, type OrgAccess } from './use-org-access';
import { useRouteOrganization } from './use-organization';

export function MembersTable({ org, access, ancestorIds }: { org: OrganizationDetail; access: OrgAccess; ancestorIds: number[] }) {
  const t = useTranslate();
  const invalidate = useInvalidate();
  const client = useQueryClient();
  const resource = `organizations/${org.id}/members`;
  const table = useTable<OrganizationMember>({ resource, syncWithLocation: false });
  const { tableProps } = table;
  const canRemove = access.can('organizations.remove_member', org.id, ancestorIds) || access.can('organizations.manage_members', org.id, ancestorIds);
  const canSearchUsers = useCan({ resource: 'users', action: 'list' }).data?.can ?? false;

  const [removing, setRemoving] = useState<OrganizationMember | null>(null);
  const refresh = () => {
    void invalidate({ resource, invalidates: ['list'] });
    void client.invalidateQueries({ queryKey: ['organizations'] });
  };

  return (
    <>
      <Flex justify="space-between" wrap gap={8} className="filter-bar section-title">
        <MemberToolbar org={org} access={access} ancestorIds={ancestorIds} canSearchUsers={canSearchUsers} />
        <ListSearch {...tableSearch(table)} placeholder={t('organizations:membersPage.search')} data-testid="member-search" className="member-search" />
      </Flex>
      <Table<OrganizationMember>
        {...tableProps}
        rowKey={(r) => r.user.id}
        pagination={tableProps.pagination && { ...tableProps.pagination, hideOnSinglePage: true, showSizeChanger: false }}
        data-testid="members-table"
      >
        <Table.Column<OrganizationMember>
          key="name"
          title={t('organizations:membersPage.name')}
          render={(_, r) => (
            <Space direction="vertical" size={0}>
              <Typography.Text strong>{fullName(r.user)}</Typography.Text>
              <Typography.Text type="secondary">{r.user.code}</Typography.Text>
            </Space>
          )}
        />
        <Table.Column<OrganizationMember> key="email" title={t('organizations:membersPage.email')} render={(_, r) => r.user.email} />
        <Table.Column<OrganizationMember> dataIndex="role" title={t('organizations:membersPage.role')} render={(v: string) => t(`organizations:membersPage.roles.${v}`, v)} />
        <Table.Column<OrganizationMember> dataIndex="joinedAt" title={t('organizations:membersPage.joinedAt')} render={(v: string) => formatDate(v)} />
        <Table.Column<OrganizationMember>
          key="actions"
          title={t('table.actions')}
          render={(_, r) => (
            <Tooltip title={canRemove ? t('organizations:members.remove') : t('organizations:noPermission.removeMember')}>
              <Button size="small" danger icon={<DeleteOutlined />} disabled={!canRemove} onClick={() => setRemoving(r)} aria-label={t('organizations:members.remove')} data-testid="member-remove" />
            </Tooltip>
          )}
        />
      </Table>
      <RemoveMemberModal org={org} member={removing} onClose={() => setRemoving(null)} onRemoved={refresh} />
    </>
  );
}

/** …/members (000 §2): the organization's active members; breadcrumbs lead back up the tree. */
export function OrganizationMembersPage() {
  const t = useTranslate();
  const access = useOrgAccess();
  const { query, base } = useRouteOrganization();
  if (query.isLoading || !access.ready) return <Spin />;
  if (query.isError || !query.data) return (
      <div data-testid="org-not-found">
        <Result status="404" title={t('organizations:notFound')} />
      </div>
    );
  const org = query.data;
  const ancestorIds = org.breadcrumb.map((b) => b.id).filter((id) => id !== org.id);
  return (
    <section data-testid="organization-members-page">
      <Breadcrumb
        items={[
          { title: <Link to="/organizations">{t('nav.organizations')}</Link> },
          ...(org.parent ? [{ title: <Link to={`/organizations/${org.parent.type}/${encodeURIComponent(org.parent.code)}`}>{org.parent.name}</Link> }] : []),
          { title: <Link to={base}>{org.name}</Link> },
          { title: t('organizations:membersPage.title') },
        ]}
      />
      <Typography.Title level={3} className="section-title">
        {t('organizations:membersPage.heading', { name: org.name, count: org.memberCount })}
      </Typography.Title>
      <OrganizationStatsCard org={org} access={access} ancestorIds={ancestorIds} />
      <MembersTable org={org} access={access} ancestorIds={ancestorIds} />
    </section>
  );
}
