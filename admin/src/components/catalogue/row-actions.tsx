import { DeleteOutlined, EditOutlined, EyeOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Result, Space, Tooltip } from 'antd';

interface Props {
  can: { show: boolean; edit: boolean; delete: boolean };
  onShow: () => void;
  onEdit: () => void;
  onDelete: () => void;
  /** Prefix of the edit/delete buttons' test ids, e.g. "department". */
  testId: string;
  /** Why this row cannot be deleted (the button is shown disabled with it), e.g. a class with students. */
  deleteBlocked?: string | null;
}

/** View, edit and delete icons of a table row, each shown only when allowed. */
export function RowActions({ can, onShow, onEdit, onDelete, testId, deleteBlocked }: Props) {
  const t = useTranslate();
  return (
    <Space>
      {can.show && (
        <Tooltip title={t('buttons.show')}>
          <Button size="small" icon={<EyeOutlined />} aria-label={t('buttons.show')} onClick={onShow} />
        </Tooltip>
      )}
      {can.edit && (
        <Tooltip title={t('buttons.edit')}>
          <Button size="small" icon={<EditOutlined />} aria-label={t('buttons.edit')} onClick={onEdit} data-testid={`${testId}-edit`} />
        </Tooltip>
      )}
      {can.delete && (
        <Tooltip title={deleteBlocked ?? t('buttons.delete')}>
          <Button
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('buttons.delete')}
            onClick={onDelete}
            disabled={Boolean(deleteBlocked)}
            data-testid={`${testId}-delete`}
          />
        </Tooltip>
      )}
    </Space>
  );
}

/** A list that failed to load, with a retry. */
export function LoadError({ onRetry, testId }: { onRetry: () => void; testId: string }) {
  const t = useTranslate();
  // Result does not pass data-* attributes on, hence the wrapper.
  return (
    <div data-testid={testId}>
      <Result status="error" title={t('errors.generic')} extra={<Button onClick={onRetry}>{t('buttons.refresh')}</Button>} />
    </div>
  );
}
