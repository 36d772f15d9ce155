import { formatDate, fullName, type OrganizationDetail, type OrganizationMember } from '@doanhoi/shared';
import { DeleteOutlined, UserDeleteOutlined } from '@ant-design/icons';
import { useTable } from '@refinedev/antd';
import { useCan, useInvalidate, useTranslate } from '@refinedev/core';
import { Breadcrumb, Button, Flex, Segmented, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { ListSearch, tableSearch } from '../../components/list-search';
import { MemberToolbar } from './member-actions';
import { EndMembershipModal } from './end-membership';
import { RemoveMemberModal } from './remove-member';
import { OrganizationStatsCard } from './stats';
import { useAllowed } from '../../components/permission-guard/use-allowed';
import { useRefreshOrganizations } from './data';
import { WithRouteOrganization, type RouteOrganization } from './route-organization';

export function MembersTable({ org, ancestorIds }: { org: OrganizationDetail; ancestorIds: number[] }) {
  const t = useTranslate();
  const invalidate = useInvalidate();
  const refreshOrganizations = useRefreshOrganizations();
  const resource = `organizations/${org.id}/members`;
  // Issue 30 item 2: the active members, or those whose membership ended (with its date and reason).
  const [status, setStatus] = useState<'active' | 'ended'>('active');
  const table = useTable<OrganizationMember>({
    resource,
    syncWithLocation: false,
    filters: { permanent: [{ field: 'status', operator: 'eq', value: status }] },
  });
  const { tableProps } = table;
  const where = { organizationId: org.id, ancestorIds };
  const canRemove = useAllowed(['organizations.remove_member', 'organizations.manage_members'], where, 'any');
  const ended = status === 'ended';
  const canEnd = useAllowed(['organizations.end_membership', 'organizations.manage_members'], where, 'any');
  const [ending, setEnding] = useState<OrganizationMember | null>(null);
  const [bulkEnding, setBulkEnding] = useState<OrganizationMember[] | null>(null);
  const [selected, setSelected] = useState<OrganizationMember[]>([]);
  const canSearchUsers = useCan({ resource: 'users', action: 'list' }).data?.can ?? false;

  const [removing, setRemoving] = useState<OrganizationMember | null>(null);
  const refresh = () => {
    void invalidate({ resource, invalidates: ['list'] });
    refreshOrganizations();
  };

  return (
    <>
      <Flex justify="space-between" wrap gap={8} className="filter-bar section-title">
        <Space wrap>
          <MemberToolbar org={org} ancestorIds={ancestorIds} canSearchUsers={canSearchUsers} />
          <Segmented
            value={status}
            onChange={(v) => {
              setStatus(v as 'active' | 'ended');
              setSelected([]);
            }}
            options={[
              { value: 'active', label: t('organizations:endMembership.statusActive') },
              { value: 'ended', label: t('organizations:endMembership.statusEnded') },
            ]}
            data-testid="member-status-filter"
          />
          {canEnd && !ended && (
            <Button icon={<UserDeleteOutlined />} onClick={() => setBulkEnding(selected)} data-testid="member-bulk-end">
              {t('organizations:endMembership.bulkAction')}
              {selected.length ? ` (${selected.length})` : ''}
            </Button>
          )}
        </Space>
        <ListSearch
          {...tableSearch(table)}
          placeholder={t('organizations:membersPage.search')}
          data-testid="member-search"
          className="member-search"
        />
      </Flex>
      <Table<OrganizationMember>
        {...tableProps}
        rowKey={(r) => r.user.id}
        rowSelection={
          canEnd && !ended
            ? { selectedRowKeys: selected.map((m) => m.user.id), onChange: (_, rows) => setSelected(rows), preserveSelectedRowKeys: true }
            : undefined
        }
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
        <Table.Column<OrganizationMember>
          dataIndex="role"
          title={t('organizations:membersPage.role')}
          render={(v: string) => t(`organizations:membersPage.roles.${v}`, v)}
        />
        <Table.Column<OrganizationMember>
          dataIndex="joinedAt"
          title={t('organizations:membersPage.joinedAt')}
          render={(v: string) => formatDate(v)}
        />
        {ended ? (
          <Table.Column<OrganizationMember>
            key="ended"
            title={t('organizations:endMembership.endedColumn')}
            render={(_, r) => (
              <Space direction="vertical" size={0}>
                <span>{r.endedAt ? formatDate(r.endedAt) : '—'}</span>
                {r.endReason && (
                  <Tag data-testid="member-end-reason">{t(`organizations:endMembership.reasons.${r.endReason}`, r.endReason)}</Tag>
                )}
                {r.endNote && <Typography.Text type="secondary">{r.endNote}</Typography.Text>}
              </Space>
            )}
          />
        ) : null}
        <Table.Column<OrganizationMember>
          key="actions"
          title={t('table.actions')}
          render={(_, r) =>
            ended ? null : (
              <Space>
                {canEnd && (
                  <Tooltip title={t('organizations:endMembership.action')}>
                    <Button
                      size="small"
                      icon={<UserDeleteOutlined />}
                      onClick={() => setEnding(r)}
                      aria-label={t('organizations:endMembership.action')}
                      data-testid="member-end"
                    />
                  </Tooltip>
                )}
                <Tooltip title={canRemove ? t('organizations:members.remove') : t('organizations:noPermission.removeMember')}>
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    disabled={!canRemove}
                    onClick={() => setRemoving(r)}
                    aria-label={t('organizations:members.remove')}
                    data-testid="member-remove"
                  />
                </Tooltip>
              </Space>
            )
          }
        />
      </Table>
      <RemoveMemberModal org={org} member={removing} onClose={() => setRemoving(null)} onRemoved={refresh} />
      <EndMembershipModal
        org={org}
        member={ending}
        bulk={bulkEnding}
        onClose={() => {
          setEnding(null);
          setBulkEnding(null);
        }}
        onDone={() => {
          setSelected([]);
          refresh();
        }}
      />
    </>
  );
}

/** …/members (000 §2): the organization's active members; breadcrumbs lead back up the tree. */
export function OrganizationMembersPage() {
  return <WithRouteOrganization>{(route) => <OrganizationMembers {...route} />}</WithRouteOrganization>;
}

function OrganizationMembers({ org, ancestorIds, base }: RouteOrganization) {
  const t = useTranslate();
  return (
    <section data-testid="organization-members-page">
      <Breadcrumb
        items={[
          { title: <Link to="/organizations">{t('nav.organizations')}</Link> },
          ...(org.parent
            ? [{ title: <Link to={`/organizations/${org.parent.type}/${encodeURIComponent(org.parent.code)}`}>{org.parent.name}</Link> }]
            : []),
          { title: <Link to={base}>{org.name}</Link> },
          { title: t('organizations:membersPage.title') },
        ]}
      />
      <Typography.Title level={3} className="section-title">
        {t('organizations:membersPage.heading', { name: org.name, count: org.memberCount })}
      </Typography.Title>
      <OrganizationStatsCard org={org} ancestorIds={ancestorIds} />
      <MembersTable org={org} ancestorIds={ancestorIds} />
    </section>
  );
}
