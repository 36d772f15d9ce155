import { DeleteOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Space, Typography } from 'antd';

interface Props {
  count: number;
  onDelete: () => void;
  onClear: () => void;
  loading?: boolean;
}

/** The bar over a table while rows are selected: how many, delete them, or clear the selection. */
export function BulkBar({ count, onDelete, onClear, loading }: Props) {
  const t = useTranslate();
  if (count === 0) return null;
  return (
    <Space className="bulk-bar" data-testid="bulk-bar">
      <Typography.Text strong>{t('catalogue.selected', { count })}</Typography.Text>
      <Button danger icon={<DeleteOutlined />} onClick={onDelete} loading={loading} data-testid="bulk-delete">
        {t('catalogue.deleteSelected', { count })}
      </Button>
      <Button onClick={onClear}>{t('catalogue.clearSelection')}</Button>
    </Space>
  );
}
