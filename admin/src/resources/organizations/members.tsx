import { formatDate, fullName, type OrganizationDetail, type SessionUser } from '@doanhoi/shared';
import { useTable } from '@refinedev/antd';
import { useTranslate } from '@refinedev/core';
import { Breadcrumb, Input, Result, Space, Spin, Table, Typography } from 'antd';
import { Link } from 'react-router';
import { useRouteOrganization } from './use-organization';

interface MemberRow {
  user: SessionUser;
  role: string;
  joinedAt: string;
}

function MembersTable({ org }: { org: OrganizationDetail }) {
  const t = useTranslate();
  const { tableProps, setFilters } = useTable<MemberRow>({ resource: `organizations/${org.id}/members`, syncWithLocation: false });
  return (
    <>
      <Space className="filter-bar">
        <Input.Search
          allowClear
          placeholder={t('organizations:membersPage.search')}
          enterButton={t('buttons.filter')}
          onSearch={(v) => setFilters([{ field: 'q', operator: 'contains', value: v.trim() || undefined }], 'replace')}
          data-testid="member-search"
        />
      </Space>
      <Table<MemberRow>
        {...tableProps}
        rowKey={(r) => r.user.id}
        pagination={tableProps.pagination && { ...tableProps.pagination, hideOnSinglePage: true, showSizeChanger: false }}
        data-testid="members-table"
      >
        <Table.Column<MemberRow>
          key="name"
          title={t('organizations:membersPage.name')}
          render={(_, r) => (
            <Space direction="vertical" size={0}>
              <Typography.Text strong>{fullName(r.user)}</Typography.Text>
              <Typography.Text type="secondary">{r.user.code}</Typography.Text>
            </Space>
          )}
        />
        <Table.Column<MemberRow> key="email" title={t('organizations:membersPage.email')} render={(_, r) => r.user.email} />
        <Table.Column<MemberRow> dataIndex="role" title={t('organizations:membersPage.role')} render={(v: string) => t(`organizations:membersPage.roles.${v}`, v)} />
        <Table.Column<MemberRow> dataIndex="joinedAt" title={t('organizations:membersPage.joinedAt')} render={(v: string) => formatDate(v)} />
      </Table>
    </>
  );
}

/** …/members (000 §2): the organization's active members; breadcrumbs lead back up the tree. */
export function OrganizationMembersPage() {
  const t = useTranslate();
  const { query, base } = useRouteOrganization();
  if (query.isLoading) return <Spin />;
  if (query.isError || !query.data) return (
      <div data-testid="org-not-found">
        <Result status="404" title={t('organizations:notFound')} />
      </div>
    );
  const org = query.data;
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
      <MembersTable org={org} />
    </section>
  );
}
