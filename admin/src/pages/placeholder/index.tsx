import { ToolOutlined } from '@ant-design/icons';
import { useResourceParams, useTranslate } from '@refinedev/core';
import { Result, Typography } from 'antd';

/** Screens of later steps: the route, its guard and its title exist, the content does not yet. */
export function PlaceholderPage() {
  const t = useTranslate();
  const { resource } = useResourceParams();
  const label = resource?.meta?.label;
  return (
    <section data-testid="placeholder-page">
      {label && <Typography.Title level={3}>{t(label)}</Typography.Title>}
      <Result icon={<ToolOutlined />} title={t('placeholder.title')} subTitle={t('placeholder.description')} />
    </section>
  );
}
