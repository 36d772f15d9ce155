import { useTranslate } from '@refinedev/core';
import { Breadcrumb, Card, Descriptions, Empty, Flex, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { OrganizationCreateButton, OrganizationManageBar } from './manage';
import { MembersTable } from './members';
import { OrganizationOfficersCard } from './officers';
import { OrgRow, TYPE_COLORS } from './org-row';
import { OrganizationStatsCard } from './stats';
import { WithRouteOrganization, type RouteOrganization } from './route-organization';

/** /organizations/{type}/{code} and its parent/child form: the organization and its children. */
export function OrganizationShowPage() {
  return <WithRouteOrganization>{(route) => <OrganizationShow {...route} />}</WithRouteOrganization>;
}

function OrganizationShow({ org, ancestorIds, base }: RouteOrganization) {
  const t = useTranslate();
  return (
    <section data-testid="organization-page">
      <Breadcrumb
        items={[
          { title: <Link to="/organizations">{t('nav.organizations')}</Link> },
          ...org.breadcrumb.map((b) => ({
            title: b.id === org.id ? b.name : <Link to={`/organizations/${b.type}/${encodeURIComponent(b.code)}`}>{b.name}</Link>,
          })),
        ]}
      />
      <Flex justify="space-between" align="center" wrap gap={8} className="section-title">
        <Typography.Title level={3} className="page-title">
          {org.name} <Tag color={TYPE_COLORS[org.type]}>{t(`organizations:types.${org.type}`)}</Tag>
        </Typography.Title>
        <OrganizationManageBar org={org} ancestorIds={ancestorIds} />
      </Flex>
      <Card>
        {/* One column on phones: two squeezed the parent name to a letter per line (issue 13). */}
        <Descriptions column={{ xs: 1, sm: 2 }} size="small">
          <Descriptions.Item label={t('organizations:fields.code')}>{org.code}</Descriptions.Item>
          <Descriptions.Item label={t('organizations:fields.parent')}>{org.parent?.name ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('organizations:fields.description')}>{org.description ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('organizations:fields.members')}>
            <Link to={`${base}/members`} data-testid="org-members-link">
              {t('organizations:tree.members', { count: org.memberCount })}
            </Link>
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <OrganizationStatsCard org={org} ancestorIds={ancestorIds} />
      <OrganizationOfficersCard org={org} />
      {/* 000 §2: a level-3 unit and a school club show their member list on the detail page itself. */}
      {(org.level >= 3 || org.type === 'clb_truong') && (
        <Card title={t('organizations:membersPage.title')} className="section-title" size="small" data-testid="org-detail-members">
          <MembersTable org={org} ancestorIds={ancestorIds} />
        </Card>
      )}
      <Card
        title={t('organizations:children', { count: org.children.length })}
        className="section-title"
        data-testid="org-children"
        extra={<OrganizationCreateButton parent={org} ancestorIds={ancestorIds} />}
      >
        {org.children.length === 0 ? (
          <Empty description={t('organizations:noChildren')} />
        ) : (
          org.children.map((c) => {
            // Children open in the parent/child form of 000 §2.
            const to = `/organizations/${org.type}/${encodeURIComponent(org.code)}/${c.type}/${encodeURIComponent(c.code)}`;
            return (
              <OrgRow key={c.id} node={c} level={0} ancestorIds={[...ancestorIds, org.id]} detailsTo={to} membersTo={`${to}/members`} />
            );
          })
        )}
      </Card>
    </section>
  );
}
