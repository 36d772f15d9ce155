import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Card, Statistic, Typography } from 'antd';
import type { ReactNode } from 'react';

interface StatCardProps {
  title: string;
  value: number;
  /** Percent change against the previous month. */
  change: number;
  icon: ReactNode;
  locale: string;
}

export function StatCard({ title, value, change, icon, locale }: StatCardProps) {
  const t = useTranslate();
  const up = change >= 0;
  const percent = new Intl.NumberFormat(locale, { maximumFractionDigits: 1, signDisplay: 'always' }).format(change);
  return (
    <Card>
      <Statistic title={title} value={value} prefix={icon} formatter={(v) => new Intl.NumberFormat(locale).format(Number(v))} />
      <Typography.Text type={up ? 'success' : 'danger'}>
        {up ? <ArrowUpOutlined /> : <ArrowDownOutlined />} {percent}%
      </Typography.Text>{' '}
      <Typography.Text type="secondary">{t('dashboard:stats.sinceLastMonth')}</Typography.Text>
    </Card>
  );
}
