import { categoryOrder, formatDate, type RoleDetail } from '@doanhoi/shared';
import { useOne, useTranslate, type BaseKey } from '@refinedev/core';
import { Descriptions, Modal, Space, Spin, Tag, Typography } from 'antd';
import { StatusTag } from '../../components/catalogue/status-tag';
import { permissionName } from './permission-name';

/** The view dialog: the role and its permissions grouped by category, with counts. */
export function RoleShowModal({ id, onClose }: { id: BaseKey | null; onClose: () => void }) {
  const t = useTranslate();
  const { result: role } = useOne<RoleDetail>({ resource: 'roles', id: id ?? '', queryOptions: { enabled: id !== null } });
  const groups = new Map<string, RoleDetail['permissions']>();
  for (const p of role?.permissions ?? []) groups.set(p.category, [...(groups.get(p.category) ?? []), p]);
  return (
    <Modal open={id !== null} onCancel={onClose} footer={null} title={t('permissions:show.title')} width={720} destroyOnHidden>
      {!role ? (
        <Spin />
      ) : (
        <div data-testid="role-show">
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label={t('permissions:fields.name')}>
              <Space>
                <Typography.Text code>{role.name}</Typography.Text>
                {role.isSystemRole && <Tag color="purple">{t('permissions:system')}</Tag>}
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label={t('permissions:fields.displayName')}>{role.displayName}</Descriptions.Item>
            <Descriptions.Item label={t('permissions:fields.description')}>{role.description ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('permissions:fields.isActive')}>
              <StatusTag active={role.isActive} />
            </Descriptions.Item>
            <Descriptions.Item label={t('permissions:fields.permissionCount')}>{role.permissionCount}</Descriptions.Item>
            <Descriptions.Item label={t('permissions:fields.createdAt')}>{formatDate(role.createdAt)}</Descriptions.Item>
          </Descriptions>
          {[...groups.entries()]
            .sort(([a], [b]) => categoryOrder(a) - categoryOrder(b))
            .map(([category, list]) => (
              <div key={category} className="section-title">
                <Typography.Text strong>
                  {t(`permissions:categories.${category}`)} ({list.length})
                </Typography.Text>
                <div>
                  {list.map((p) => (
                    <Tag key={p.id} className="permission-tag">
                      {permissionName(t, p)}
                    </Tag>
                  ))}
                </div>
              </div>
            ))}
        </div>
      )}
    </Modal>
  );
}
