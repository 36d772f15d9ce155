import { formatDateTime, formatVnd } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Alert, Button, Card, Col, Progress, Row, Space, Spin, Statistic, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { dueKey, dueLevel, progressColor } from '../rules';
import { useCampaignStatistics } from '../use-statistics';
import { ATTENTION_HISTORY_QUERY } from './payment-history';

const BANNER_TYPES = { overdue: 'error', soon: 'warning', week: 'warning', ok: 'success', cancelled: 'info', completed: 'info' } as const;

/** Statistics tab (001 §2): the due-date banner, four money/member cards, counts by status and the progress bar. */
export function StatisticsTab({ campaignId, canSeeHistory, status }: { campaignId: number; canSeeHistory: boolean; status?: string }) {
  const t = useTranslate();
  const { stats: s } = useCampaignStatistics(campaignId);
  if (!s) return <Spin />;
  const due = dueLevel(s.endDate, Date.now(), status);
  const percent = Math.round(s.collectionPercentage);
  return (
    <Space direction="vertical" className="full-width" data-testid="campaign-statistics">
      <Alert
        type={BANNER_TYPES[due.level]}
        showIcon
        className={`due-banner due-${due.level}`}
        data-testid="due-banner"
        data-level={due.level}
        message={t(`campaigns:stats.dueLevel.${dueKey(due)}`, {
          date: formatDateTime(s.endDate),
          count: due.daysLeft,
          hours: due.hoursLeft,
          minutes: due.minutesLeft,
        })}
      />
      <Row gutter={[16, 16]}>
        <Col xs={12} lg={6}>
          <Card>
            <Statistic title={t('campaigns:stats.members')} value={s.totalMembers} />
          </Card>
        </Col>
        <Col xs={12} lg={6}>
          <Card data-testid="stat-uncollected">
            <Statistic title={t('campaigns:stats.uncollected')} value={formatVnd(s.uncollected)} />
          </Card>
        </Col>
        <Col xs={12} lg={6}>
          <Card data-testid="stat-collected">
            <Statistic title={t('campaigns:stats.collected')} value={formatVnd(s.collected)} />
          </Card>
        </Col>
        <Col xs={12} lg={6}>
          <Card data-testid="stat-expected">
            <Statistic title={t('campaigns:stats.expected')} value={formatVnd(s.totalExpected)} />
          </Card>
        </Col>
      </Row>
      <Space wrap>
        <Tag color="processing">{t('campaigns:stats.pending', { count: s.pendingCount })}</Tag>
        <Tag color="success">{t('campaigns:stats.paid', { count: s.paidCount })}</Tag>
        {/* Fees settled by sandbox money are tests, not payments: apart, as their money is (docs/decisions.md). */}
        {(s.testPaidCount ?? 0) > 0 && <Tag color="purple">{t('campaigns:stats.testPaid', { count: s.testPaidCount })}</Tag>}
        <Tag color="error">{t('campaigns:stats.overdue', { count: s.overdueCount })}</Tag>
        {/* Exempted fees count 0 in expected, reduced ones their new amount (issue 15.3). */}
        <Tag data-testid="stat-exempted">{t('adjustments:stats.exempted', { count: s.exemptedCount ?? 0 })}</Tag>
        <Tag color="gold" data-testid="stat-reduced">
          {t('adjustments:stats.reduced', { count: s.reducedCount ?? 0 })}
        </Tag>
        {(s.waivedAmount ?? 0) > 0 && (
          <Typography.Text type="secondary" data-testid="stat-waived">
            {t('adjustments:stats.waived', { amount: formatVnd(s.waivedAmount) })}
          </Typography.Text>
        )}
      </Space>
      <Progress
        percent={percent}
        strokeColor={progressColor(percent)}
        data-testid="collection-progress"
        data-color={progressColor(percent)}
      />
      {/* Every đồng received: applied to fees + excess kept + refunds due (issue 11). Test money is apart. */}
      <Typography.Paragraph data-testid="money-reconciliation">
        {t('campaigns:money.reconciliation', {
          received: formatVnd(s.totalReceived ?? s.collected),
          collected: formatVnd(s.collected),
          extra: formatVnd(s.extraReceived ?? 0),
          refund: formatVnd(s.refundDue ?? 0),
        })}
      </Typography.Paragraph>
      <Row gutter={[16, 16]} data-testid="attention-tiles">
        <Col xs={24} md={8}>
          <Card size="small" data-testid="tile-refund-due" className={s.refundDueCount ? 'tile-attention' : undefined}>
            <Statistic title={t('campaigns:money.refundDue', { count: s.refundDueCount ?? 0 })} value={formatVnd(s.refundDue ?? 0)} />
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card size="small" data-testid="tile-balance-due" className={s.balanceDueCount ? 'tile-attention' : undefined}>
            <Statistic title={t('campaigns:money.balanceDue', { count: s.balanceDueCount ?? 0 })} value={formatVnd(s.balanceDue ?? 0)} />
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card size="small" data-testid="tile-test">
            <Statistic title={t('campaigns:money.test', { count: s.testPaidCount ?? 0 })} value={formatVnd(s.testReceived ?? 0)} />
            {s.testRefundDue > 0 && (
              <Typography.Text type="warning" data-testid="test-refund-due">
                {t('campaigns:money.testRefund', { amount: formatVnd(s.testRefundDue) })}
              </Typography.Text>
            )}
          </Card>
        </Col>
      </Row>
      {(s.attentionCount > 0 || s.testAttentionCount > 0) && (
        <Alert
          type="warning"
          showIcon
          data-testid="attention-banner"
          message={
            s.attentionCount > 0
              ? t('campaigns:money.attention', { count: s.attentionCount })
              : t('campaigns:money.testAttention', { count: s.testAttentionCount })
          }
          action={
            canSeeHistory && (
              <Link to={`?${ATTENTION_HISTORY_QUERY}`}>
                <Button size="small" data-testid="attention-open-history">
                  {t('campaigns:money.review')}
                </Button>
              </Link>
            )
          }
        />
      )}
    </Space>
  );
}
