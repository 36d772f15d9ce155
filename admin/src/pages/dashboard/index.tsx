import { ApartmentOutlined, FlagOutlined, TeamOutlined, UserAddOutlined } from '@ant-design/icons';
import { formatDate, formatNumber } from '@doanhoi/shared';
import { useGetLocale, useTranslate } from '@refinedev/core';
import { Alert, Button, Col, Row, Typography } from 'antd';
import { lazy } from 'react';
import { useSearchParams } from 'react-router';
import { useCurrentOrganization } from '../../context/current-organization';
import { CallbackErrorAlert } from '../login/callback-error';
import { ChartCard } from './chart-card';
import { MoneySection } from './money-section';
import { StatCard } from './stat-card';
import { useAllowed } from '../../components/permission-guard/use-allowed';
import { MEMBERS_CODE, useDashboardRights, useMemberFigures, xlsxPath } from './use-dashboard';

// Recharts loads only once figures are on screen: never in the sign-in page's bundle.
const MembersChart = lazy(() => import('./charts').then((m) => ({ default: m.MembersChart })));

/** Live figures of the current organization and its units (issue 15.1). */
export function DashboardPage() {
  const t = useTranslate();
  const locale = useGetLocale()() === 'en' ? 'en-US' : 'vi-VN';
  const [params] = useSearchParams();
  const rights = useDashboardRights();
  const { organizations } = useCurrentOrganization();
  const systemWide = useAllowed(MEMBERS_CODE, { organizationId: null });
  const { organizationId } = rights;
  const members = useMemberFigures(organizationId, rights.ready && rights.members);
  const d = members.data;
  const n = (v: number | undefined) => (v == null ? '–' : formatNumber(v, locale));
  // Without a unit chosen the API counts where the code is held: the whole system only for a global grant, else those units (issue 25 item 11).
  const scopeName =
    organizationId != null
      ? (organizations.find((o) => o.id === organizationId)?.name ?? '')
      : systemWide
        ? t('dashboard:scopeAll')
        : (d?.units.map((u) => u.name).join(', ') ?? '');
  const term = d
    ? `${t(`dashboard:term.${d.term.kind}`)} (${formatDate(d.term.start)} – ${formatDate(new Date(new Date(d.term.end).getTime() - 1))})`
    : '';

  return (
    <section data-testid="dashboard" className="dashboard">
      <Typography.Title level={3}>{t('dashboard:title')}</Typography.Title>
      {scopeName && (
        <Typography.Paragraph type="secondary" data-testid="dashboard-scope">
          {t('dashboard:subtitle', { scope: scopeName })}
        </Typography.Paragraph>
      )}
      <CallbackErrorAlert code={params.get('error')} />
      {rights.ready && !rights.members && (
        <Alert type="info" showIcon message={t('dashboard:charts.noMembers')} data-testid="dashboard-no-members" />
      )}
      {members.query.isError && (
        <Alert
          type="error"
          showIcon
          className="block-gap"
          message={t('dashboard:charts.loadFailed')}
          action={<Button onClick={() => void members.query.refetch()}>{t('dashboard:charts.retry')}</Button>}
        />
      )}
      {rights.members && (
        <>
          <Row gutter={[16, 16]}>
            <Col xs={24} sm={12} xl={6}>
              <StatCard
                testId="stat-members"
                title={t('dashboard:stats.totalMembers')}
                value={n(d?.totals.members)}
                icon={<TeamOutlined />}
                loading={!d}
                note={`${t('dashboard:stats.organizations')}: ${n(d?.totals.organizations)}`}
              />
            </Col>
            <Col xs={24} sm={12} xl={6}>
              <StatCard
                testId="stat-doan"
                title={t('dashboard:stats.youthUnionMembers')}
                value={n(d?.totals.doanVien)}
                icon={<FlagOutlined />}
                loading={!d}
              />
            </Col>
            <Col xs={24} sm={12} xl={6}>
              <StatCard
                testId="stat-hoi"
                title={t('dashboard:stats.associationMembers')}
                value={n(d?.totals.hoiVien)}
                icon={<ApartmentOutlined />}
                loading={!d}
              />
            </Col>
            <Col xs={24} sm={12} xl={6}>
              <StatCard
                testId="stat-joins"
                title={t('dashboard:stats.joinsThisTerm', { term: d ? t(`dashboard:term.${d.term.kind}`) : '' })}
                value={n(d?.totals.joinsThisTerm)}
                icon={<UserAddOutlined />}
                loading={!d}
                note={term}
              />
            </Col>
          </Row>
          <Row gutter={[16, 16]} className="dashboard-row">
            <Col xs={24} xl={rights.money ? 12 : 24}>
              <ChartCard title={t('dashboard:charts.membersByUnit')} testId="chart-members" xlsx={xlsxPath('members', organizationId)}>
                {d && <MembersChart units={d.units} locale={locale} />}
              </ChartCard>
            </Col>
            {rights.money && <MoneySection organizationId={organizationId} locale={locale} />}
          </Row>
        </>
      )}
    </section>
  );
}
