import { formatDate, formatNumber, formatPercent, formatVnd, type DashboardCampaigns } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Col, Empty, List, Progress, Select, Table, Typography } from 'antd';
import { lazy, useState } from 'react';
import { ChartCard } from './chart-card';
import { StatCard } from './stat-card';
import { useCollectionFigures, useWeeklyFigures, xlsxPath } from './use-dashboard';
import { DollarOutlined, WarningOutlined } from '@ant-design/icons';

const CollectionChart = lazy(() => import('./charts').then((m) => ({ default: m.CollectionChart })));
const WeeklyChart = lazy(() => import('./charts').then((m) => ({ default: m.WeeklyChart })));

type Campaign = DashboardCampaigns['campaigns'][number];

/** Money figures: shown only with payment-campaigns.view_reports (the API refuses them otherwise). */
export function MoneySection({ organizationId, locale }: { organizationId: number | null; locale: string }) {
  const t = useTranslate();
  const { data, query } = useCollectionFigures(organizationId, true);
  const [chosen, setChosen] = useState<number>();
  const campaignId = chosen != null && data?.campaigns.some((c) => c.id === chosen) ? chosen : data?.campaigns[0]?.id;
  const weekly = useWeeklyFigures(campaignId);
  const n = (v: number) => formatNumber(v, locale);
  const pct = (v: number) => formatPercent(v, locale);
  const loading = query.isLoading;
  const totals = data?.totals;

  return (
    <>
      <Col xs={24} xl={12}>
        <ChartCard title={t('dashboard:charts.collectionByUnit')} testId="chart-collection" xlsx={xlsxPath('campaigns', organizationId)}>
          {data && <CollectionChart units={data.units} locale={locale} />}
        </ChartCard>
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <StatCard
          testId="stat-rate"
          loading={loading}
          title={t('dashboard:stats.collectionRate')}
          icon={<DollarOutlined />}
          value={totals ? pct(totals.rate) : '–'}
          note={
            totals &&
            t('dashboard:stats.collectedOfExpected', { collected: formatVnd(totals.collected), expected: formatVnd(totals.expected) })
          }
        />
      </Col>
      <Col xs={24} sm={12} xl={8}>
        <StatCard
          testId="stat-paid"
          loading={loading}
          title={t('dashboard:columns.paid')}
          icon={<DollarOutlined />}
          value={totals ? `${n(totals.paid)} / ${n(totals.assigned)}` : '–'}
          note={totals && totals.testPaid > 0 ? t('dashboard:stats.testPaid', { count: n(totals.testPaid) }) : undefined}
        />
      </Col>
      <Col xs={24} sm={24} xl={8}>
        <StatCard
          testId="stat-overdue"
          loading={loading}
          title={t('dashboard:stats.overdue')}
          icon={<WarningOutlined />}
          value={totals ? formatVnd(totals.overdueAmount) : '–'}
          note={totals && t('dashboard:stats.overdueCount', { count: totals.overdueCount })}
        />
      </Col>
      <Col xs={24} xl={16}>
        <ChartCard title={t('dashboard:charts.campaigns')} testId="dashboard-campaigns">
          <Table<Campaign>
            rowKey="id"
            size="small"
            loading={loading}
            dataSource={data?.campaigns ?? []}
            pagination={false}
            scroll={{ x: 640 }}
            locale={{ emptyText: <Empty description={t('dashboard:charts.noCampaigns')} /> }}
            columns={[
              {
                title: t('dashboard:columns.campaign'),
                dataIndex: 'name',
                render: (v: string, r) => (
                  <>
                    <Typography.Text strong>{v}</Typography.Text>
                    <br />
                    <Typography.Text type="secondary">{r.organizationName}</Typography.Text>
                  </>
                ),
              },
              {
                title: t('dashboard:columns.rate'),
                dataIndex: 'rate',
                width: 140,
                render: (v: number) => <Progress percent={v} size="small" status={v >= 100 ? 'success' : 'normal'} format={() => pct(v)} />,
              },
              {
                title: t('dashboard:columns.paid'),
                key: 'paid',
                // Sandbox-settled fees are not paid (issue 26 item 9): said apart, as on the campaign's statistics.
                render: (_, r) => (
                  <>
                    {`${n(r.paid)} / ${n(r.assigned)}`}
                    {r.testPaid > 0 && (
                      <>
                        <br />
                        <Typography.Text type="secondary">{t('dashboard:stats.testPaid', { count: n(r.testPaid) })}</Typography.Text>
                      </>
                    )}
                  </>
                ),
              },
              {
                title: t('dashboard:columns.collected'),
                key: 'collected',
                render: (_, r) => `${formatVnd(r.collected)} / ${formatVnd(r.expected)}`,
              },
              { title: t('dashboard:columns.overdue'), dataIndex: 'overdueAmount', render: (v: number) => formatVnd(v) },
              { title: t('dashboard:columns.endDate'), dataIndex: 'endDate', render: (v: string) => formatDate(v) },
            ]}
          />
        </ChartCard>
      </Col>
      <Col xs={24} xl={8}>
        <ChartCard title={t('dashboard:charts.lagging')} testId="dashboard-lagging">
          <List
            loading={loading}
            dataSource={data?.lagging ?? []}
            locale={{ emptyText: t('dashboard:charts.noLagging') }}
            renderItem={(u) => (
              <List.Item data-testid="lagging-unit">
                <List.Item.Meta
                  title={u.name}
                  description={
                    <>
                      {t('dashboard:lagging.owed', { amount: formatVnd(u.expected - u.collected) })}
                      <br />
                      {t('dashboard:lagging.paid', { paid: n(u.paid), assigned: n(u.assigned) })}
                    </>
                  }
                />
                <div className="dashboard-lagging-rate">
                  <Progress type="circle" size={52} percent={u.rate} status="exception" format={() => pct(u.rate)} />
                  <Typography.Text type="secondary">{t('dashboard:lagging.rate')}</Typography.Text>
                </div>
              </List.Item>
            )}
          />
        </ChartCard>
      </Col>
      <Col xs={24}>
        <ChartCard
          title={t('dashboard:charts.weekly')}
          testId="chart-weekly"
          xlsx={campaignId != null ? xlsxPath('weekly', null, { campaignId }) : undefined}
        >
          {data?.campaigns.length ? (
            <Select
              className="dashboard-campaign-select"
              aria-label={t('dashboard:charts.chooseCampaign')}
              value={campaignId}
              onChange={setChosen}
              options={data.campaigns.map((c) => ({ value: c.id, label: c.name }))}
              data-testid="weekly-campaign"
            />
          ) : null}
          {weekly.data ? (
            <WeeklyChart data={weekly.data} locale={locale} />
          ) : (
            !campaignId && <Empty description={t('dashboard:charts.noCampaigns')} />
          )}
        </ChartCard>
      </Col>
    </>
  );
}
