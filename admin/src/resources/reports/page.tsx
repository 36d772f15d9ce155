import { ethnicityName, REPORT_GROUPS, type MembershipReport } from '@doanhoi/shared';
import { useCustom, useTranslate } from '@refinedev/core';
import { Alert, App, Breadcrumb, Button, Card, DatePicker, InputNumber, Select, Space, Spin, Table, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OrganizationPicker } from '../../components/organization-picker';
import { useCurrentOrganization } from '../../context/current-organization';
import { downloadFile } from '../../providers/download';
import { apiUrl } from '../payment-campaigns/use-refresh';
import { PERIOD_KINDS, periodRange, schoolYearOf, type PeriodKind } from './period';
import { ReportTable } from './table';

/**
 * /reports (issue 30 item 8): for a unit in the caller's reach and a period (semester, school or
 * calendar year, or any range), the members at the start, movements and members at the end, with
 * đoàn phí collected, kept and remitted, per direct unit with the total row; a unit's name opens its
 * own units; the same report downloads as xlsx.
 */
export function ReportsPage() {
  const t = useTranslate();
  const { i18n } = useTranslation();
  const { message } = App.useApp();
  const { organizationId: current, organizations } = useCurrentOrganization();
  const [picked, setPicked] = useState<number | undefined>();
  const [trail, setTrail] = useState<{ id: number; name: string }[]>([]);
  const [kind, setKind] = useState<PeriodKind>('schoolYear');
  const [year, setYear] = useState(schoolYearOf(new Date()));
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [downloading, setDownloading] = useState(false);
  const base = picked ?? current ?? undefined;
  const unitId = trail.length ? trail[trail.length - 1]!.id : base;
  const period =
    kind === 'custom'
      ? range
        ? { from: range[0].format('YYYY-MM-DD'), to: range[1].format('YYYY-MM-DD') }
        : null
      : periodRange(kind, year);
  const query = unitId && period ? { organizationId: unitId, ...period } : undefined;
  const { query: q, result } = useCustom<MembershipReport>({
    url: apiUrl('/reports/membership'),
    method: 'get',
    config: { query },
    errorNotification: false,
    queryOptions: { enabled: Boolean(query), retry: false },
  });
  const report = q.isSuccess ? (result.data as MembershipReport) : undefined;
  const lang = i18n.resolvedLanguage?.startsWith('en') ? 'en' : 'vi';
  const download = async () => {
    if (!query) return;
    setDownloading(true);
    try {
      await downloadFile('/reports/membership/export', { query, fallback: 'bao-cao.xlsx' });
    } catch (e) {
      void message.error((e as Error).message);
    } finally {
      setDownloading(false);
    }
  };
  const self = report?.units[0];
  return (
    <section data-testid="reports-page">
      <Typography.Title level={3}>{t('reports:title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('reports:intro')}</Typography.Paragraph>
      <Card size="small" className="bulk-bar">
        <Space wrap>
          <Typography.Text>{t('reports:unit')}</Typography.Text>
          <OrganizationPicker
            className="org-picker-wide"
            value={base}
            onChange={(v) => {
              setPicked(v as number);
              setTrail([]);
            }}
            known={organizations.map((o) => ({ id: o.id, name: o.name, code: o.code ?? '' }))}
            placeholder={t('reports:chooseUnit')}
            data-testid="report-unit"
          />
          <Typography.Text>{t('reports:period')}</Typography.Text>
          <Select<PeriodKind>
            value={kind}
            onChange={setKind}
            options={PERIOD_KINDS.map((k) => ({ value: k, label: t(`reports:periods.${k}`) }))}
            data-testid="report-period"
            className="report-period"
          />
          {kind === 'custom' ? (
            <DatePicker.RangePicker
              format="DD/MM/YYYY"
              value={range}
              onChange={(v) => setRange(v && v[0] && v[1] ? [v[0], v[1]] : null)}
              disabledDate={(d) => d.isAfter(dayjs().add(1, 'year'))}
              data-testid="report-range"
            />
          ) : (
            <InputNumber
              min={2000}
              max={2100}
              value={year}
              onChange={(v) => v && setYear(v)}
              formatter={(v) => (kind === 'calendarYear' ? String(v) : `${v}–${Number(v) + 1}`)}
              parser={(v) => Number(String(v).slice(0, 4))}
              aria-label={t('reports:year')}
              data-testid="report-year"
            />
          )}
          {period && (
            <Typography.Text type="secondary" data-testid="report-dates">
              {dayjs(period.from).format('DD/MM/YYYY')} – {dayjs(period.to).format('DD/MM/YYYY')}
            </Typography.Text>
          )}
          <Button icon={<DownloadOutlined />} onClick={download} loading={downloading} disabled={!report} data-testid="report-export">
            {t('reports:export')}
          </Button>
        </Space>
      </Card>
      {trail.length > 0 && (
        <Breadcrumb
          className="report-trail"
          items={[
            { title: <a onClick={() => setTrail([])}>{t('reports:top')}</a> },
            ...trail.map((s, i) => ({
              title: i === trail.length - 1 ? s.name : <a onClick={() => setTrail(trail.slice(0, i + 1))}>{s.name}</a>,
            })),
          ]}
        />
      )}
      {!query ? (
        <Alert type="info" showIcon message={t(unitId ? 'reports:choosePeriod' : 'reports:chooseUnit')} />
      ) : q.isError ? (
        <Alert type="error" showIcon message={t('reports:failed')} description={q.error?.message} />
      ) : !report || !self ? (
        <Spin />
      ) : (
        <Space direction="vertical" size="middle" className="full-width">
          <ReportTable report={report} onDrill={(id, name) => setTrail([...trail, { id, name }])} />
          <Typography.Text type="secondary">
            {report.campaigns.length
              ? t('reports:campaigns', { names: report.campaigns.map((c) => c.name).join(', ') })
              : t('reports:noCampaigns')}
          </Typography.Text>
          <Card size="small" title={t('reports:breakdown', { name: self.name })}>
            <Table
              size="small"
              pagination={false}
              rowKey="group"
              data-testid="report-groups"
              dataSource={REPORT_GROUPS.map((g) => ({ group: g, ...self.total.groups[g] }))}
              columns={[
                { key: 'group', title: t('reports:cols.group'), render: (_, r) => t(`reports:groups.${r.group}`) },
                ...(['start', 'admitted', 'transferredIn', 'transferredOut', 'left', 'end'] as const).map((k) => ({
                  key: k,
                  title: t(`reports:cols.${k}`),
                  dataIndex: k,
                  align: 'right' as const,
                })),
              ]}
            />
            <Typography.Paragraph className="report-ethnicities" data-testid="report-ethnicities">
              {t('reports:ethnicities')}:{' '}
              {Object.entries(self.total.ethnicities)
                .filter(([, e]) => e.end > 0)
                .sort(([, a], [, b]) => b.end - a.end)
                .map(([code, e]) => `${code ? ethnicityName(code, lang) : t('reports:unknown')} ${e.end}`)
                .join(' · ') || '—'}
            </Typography.Paragraph>
          </Card>
        </Space>
      )}
    </section>
  );
}
