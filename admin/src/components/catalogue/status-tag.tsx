import { useTranslate } from '@refinedev/core';
import { Tag } from 'antd';

/** Active / inactive, as every catalogue table shows it. */
export function StatusTag({ active }: { active: boolean }) {
  const t = useTranslate();
  return <Tag color={active ? 'green' : 'default'}>{t(active ? 'catalogue.active' : 'catalogue.inactive')}</Tag>;
}
