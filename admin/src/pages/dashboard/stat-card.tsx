import { Card, Statistic, Typography } from 'antd';
import type { ReactNode } from 'react';

interface StatCardProps {
  title: string;
  value: ReactNode;
  icon: ReactNode;
  /** A line under the figure (a split, a count, a term). */
  note?: ReactNode;
  testId: string;
  loading?: boolean;
}

export function StatCard({ title, value, icon, note, testId, loading }: StatCardProps) {
  return (
    <Card data-testid={testId} loading={loading} className="dashboard-stat">
      <Statistic title={title} value={value as string} prefix={icon} />
      {note && <Typography.Text type="secondary">{note}</Typography.Text>}
    </Card>
  );
}
