import { formatDateTime, formatVnd } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Alert, Card, Col, Progress, Row, Space, Spin, Statistic, Tag } from 'antd';
import { dueLevel, progressColor } from '../rules';
import { useCampaignStatistics } from '../use-statistics';

const BANNER_TYPES = { overdue: 'error', soon: 'warning', week: 'warning', ok: 'success' } as const;

/** Statistics tab (001 §2): the due-date banner, four money/member cards, counts by status and the progress bar. */
export function StatisticsTab({ campaignId }: { campaignId: number }) {
  const t = useTranslate();
  const { stats: s } = useCampaignStatistics(campaignId);
  if (!s) return <Spin />;
  const due = dueLevel(s.endDate);
  const percent = Math.round(s.collectionPercentage);
  return (
    <Space direction="vertical" className="full-width" data-testid="campaign-statistics">
      <Alert
        type={BANNER_TYPES[due.level]}
        showIcon
        className={`due-banner due-${due.level}`}
        data-testid="due-banner"
        data-level={due.level}
        message={t(`campaigns:stats.dueLevel.${due.level}`, { date: formatDateTime(s.endDate), count: due.daysLeft })}
      />
      <Row gutter={[16, 16]}>
        <Col xs={12} lg={6}><Card><Statistic title={t('campaigns:stats.members')} value={s.totalMembers} /></Card></Col>
        <Col xs={12} lg={6}><Card><Statistic title={t('campaigns:stats.uncollected')} value={formatVnd(s.uncollected)} /></Card></Col>
        <Col xs={12} lg={6}><Card><Statistic title={t('campaigns:stats.collected')} value={formatVnd(s.collected)} /></Card></Col>
        <Col xs={12} lg={6}><Card><Statistic title={t('campaigns:stats.expected')} value={formatVnd(s.totalExpected)} /></Card></Col>
      </Row>
      <Space>
        <Tag color="processing">{t('campaigns:stats.pending', { count: s.pendingCount })}</Tag>
        <Tag color="success">{t('campaigns:stats.paid', { count: s.paidCount })}</Tag>
        <Tag color="error">{t('campaigns:stats.overdue', { count: s.overdueCount })}</Tag>
      </Space>
      <Progress percent={percent} strokeColor={progressColor(percent)} data-testid="collection-progress" data-color={progressColor(percent)} />
    </Space>
  );
}
