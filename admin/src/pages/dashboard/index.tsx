import { useGetLocale, useTranslate } from '@refinedev/core';
import { Button, Card, Col, List, Row, Space, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { CallbackErrorAlert } from '../login/callback-error';
import { ACTIVITIES, QUICK_ACTIONS, STATS } from './sample-data';
import { StatCard } from './stat-card';

/** 000 §1: fixed sample figures only; the quick actions intentionally do nothing yet. */
export function DashboardPage() {
  const t = useTranslate();
  const locale = useGetLocale()() === 'en' ? 'en-US' : 'vi-VN';
  const [params] = useSearchParams();

  return (
    <section data-testid="dashboard" className="dashboard">
      <Typography.Title level={3}>{t('dashboard:title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('dashboard:subtitle')}</Typography.Paragraph>
      <CallbackErrorAlert code={params.get('error')} />
      <Row gutter={[16, 16]}>
        {STATS.map((s) => (
          <Col key={s.key} xs={24} sm={12} xl={6}>
            <StatCard title={t(`dashboard:stats.${s.key}`)} value={s.value} change={s.change} icon={s.icon} locale={locale} />
          </Col>
        ))}
      </Row>
      <Row gutter={[16, 16]} className="dashboard-row">
        <Col xs={24} lg={16}>
          <Card title={t('dashboard:activity.title')}>
            <List
              dataSource={ACTIVITIES}
              renderItem={(key) => (
                <List.Item>
                  <List.Item.Meta title={t(`dashboard:activity.${key}.text`)} description={t(`dashboard:activity.${key}.time`)} />
                </List.Item>
              )}
            />
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card title={t('dashboard:quickActions.title')}>
            <Space direction="vertical" className="full-width">
              {QUICK_ACTIONS.map((a) => (
                <Button key={a.key} block icon={a.icon}>
                  {t(`dashboard:quickActions.${a.key}`)}
                </Button>
              ))}
            </Space>
          </Card>
        </Col>
      </Row>
    </section>
  );
}
