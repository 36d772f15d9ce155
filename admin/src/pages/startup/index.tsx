import { useTranslate } from '@refinedev/core';
import { Spin, Typography } from 'antd';

/** Shown while the session is checked (000 §2 "Startup loading screen"). */
export function StartupScreen() {
  const t = useTranslate();
  return (
    <div className="startup-screen" role="status" aria-live="polite" data-testid="startup-screen">
      <Spin size="large" />
      <Typography.Title level={4}>{t('startup.title')}</Typography.Title>
      <Typography.Text type="secondary">{t('startup.subtitle')}</Typography.Text>
    </div>
  );
}
