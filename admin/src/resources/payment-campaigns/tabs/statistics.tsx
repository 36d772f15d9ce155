import { formatDateTime, formatVnd, type CampaignStatistics } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Progress, Row, Space, Spin, Statistic, Tag } from 'antd';
import { apiRequest } from '../../../providers/http';

/** Statistics tab (001 §2): due date, four money/member cards, counts by status and a progress bar. */
export function StatisticsTab({ campaignId }: { campaignId: number }) {
  const t = useTranslate();
  const q = useQuery({ queryKey: ['payment-campaigns', campaignId, 'statistics'], queryFn: () => apiRequest<CampaignStatistics>(`/payment-campaigns/${campaignId}/statistics`) });
  if (!q.data) return <Spin />;
  const s = q.data;
  const ended = new Date(s.endDate).getTime() < Date.now();
  return (
    <Space direction="vertical" className="full-width" data-testid="campaign-statistics">
      <Alert type={ended ? 'warning' : 'info'} showIcon message={t(ended ? 'campaigns:stats.ended' : 'campaigns:stats.due', { date: formatDateTime(s.endDate) })} />
      <Row gutter={16}>
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
      <Progress percent={Math.round(s.collectionPercentage)} />
    </Space>
  );
}
