import { Space, Typography } from 'antd';
import type { ReactNode } from 'react';

/** A screen's title and subtitle, with its main action (usually the add button) on the right. */
export function PageHeader({ title, subtitle, extra }: { title: ReactNode; subtitle?: ReactNode; extra?: ReactNode }) {
  return (
    <Space className="page-header" align="start">
      <div>
        <Typography.Title level={3}>{title}</Typography.Title>
        {subtitle && <Typography.Paragraph type="secondary">{subtitle}</Typography.Paragraph>}
      </div>
      {extra}
    </Space>
  );
}
