import { formatDate, type Department } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Descriptions, Modal } from 'antd';
import { StatusTag } from '../../components/catalogue/status-tag';

/** The view dialog: every field of one department and how many people it serves. */
export function DepartmentShowModal({ department, onClose }: { department: Department | null; onClose: () => void }) {
  const t = useTranslate();
  return (
    <Modal open={department !== null} onCancel={onClose} footer={null} title={t('departments:show.title')} destroyOnHidden>
      {department && (
        <Descriptions column={1} bordered size="small" data-testid="department-show">
          <Descriptions.Item label={t('departments:fields.name')}>{department.name}</Descriptions.Item>
          <Descriptions.Item label={t('departments:fields.code')}>{department.code ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('departments:fields.description')}>{department.description ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('departments:fields.isActive')}>
            <StatusTag active={department.isActive} />
          </Descriptions.Item>
          <Descriptions.Item label={t('departments:fields.managementUsers')}>{department.managementUsers}</Descriptions.Item>
          <Descriptions.Item label={t('departments:fields.trainingUsers')}>{department.trainingUsers}</Descriptions.Item>
          <Descriptions.Item label={t('departments:fields.createdAt')}>{formatDate(department.createdAt)}</Descriptions.Item>
        </Descriptions>
      )}
    </Modal>
  );
}
