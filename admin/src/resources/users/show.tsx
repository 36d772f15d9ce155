import { formatDate, fullName, type UserDetail } from '@doanhoi/shared';
import { useOne, useTranslate, type BaseKey } from '@refinedev/core';
import { Descriptions, Modal, Spin, Tag } from 'antd';
import { StatusTag } from '../../components/catalogue/status-tag';
import { IssuePasswordCode } from '../../components/password-code';
import { RoleScopeTag } from '../../components/role-scope';
import { useTranslation } from 'react-i18next';
import { UserHistory } from './history';
import { memberRecordItems } from './record-items';

/** The view dialog: the account, its memberships and its roles, then its history (history.tsx). */
export function UserShowModal({ id, onClose }: { id: BaseKey | null; onClose: () => void }) {
  const t = useTranslate();
  const { i18n } = useTranslation();
  const { result: u } = useOne<UserDetail>({ resource: 'users', id: id ?? '', queryOptions: { enabled: id !== null } });
  return (
    <Modal open={id !== null} onCancel={onClose} footer={null} title={t('users:show.title')} width={720} destroyOnHidden>
      {!u ? (
        <Spin />
      ) : (
        <Descriptions
          column={{ xs: 1, sm: 2, md: 2, lg: 2, xl: 2, xxl: 2 }}
          bordered
          size="small"
          className="phone-stack"
          data-testid="user-show"
        >
          <Descriptions.Item label={t('users:fields.fullName')} span={2}>
            {fullName(u)}
          </Descriptions.Item>
          <Descriptions.Item label={t('users:fields.code')}>{u.code}</Descriptions.Item>
          <Descriptions.Item label={t('users:fields.userType')}>{t(`users:userType.${u.userType}`)}</Descriptions.Item>
          <Descriptions.Item label={t('users:fields.email')}>{u.email}</Descriptions.Item>
          <Descriptions.Item label={t('users:fields.phone')}>{u.phone ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('users:fields.membershipStatus')}>{t(`users:membership.${u.membershipStatus}`)}</Descriptions.Item>
          <Descriptions.Item label={t('users:fields.isActive')}>
            <StatusTag active={u.isActive} />
          </Descriptions.Item>
          <Descriptions.Item label={t('users:fields.class')}>{u.class?.name ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('users:fields.createdAt')}>{formatDate(u.createdAt)}</Descriptions.Item>
          <Descriptions.Item label={t('users:fields.managementDepartment')}>{u.managementDepartment?.name ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('users:fields.trainingDepartment')}>{u.trainingDepartment?.name ?? '—'}</Descriptions.Item>
          {memberRecordItems(u, t, i18n.resolvedLanguage)}
          <Descriptions.Item label={t('users:fields.organizations')} span={2}>
            {u.organizations
              .filter((m) => m.isActive)
              .map((m) => (
                <Tag key={m.organizationId}>{m.organization.name}</Tag>
              ))}
            {u.organizations.every((m) => !m.isActive) && '—'}
          </Descriptions.Item>
          {u.mustChangePassword && (
            <Descriptions.Item label={t('auth:passwordCode.label')} span={2}>
              <IssuePasswordCode userId={u.id} />
            </Descriptions.Item>
          )}
          <Descriptions.Item label={t('users:fields.roles')} span={2}>
            {u.userRoles
              .filter((r) => r.isActive)
              .map((r) => (
                <RoleScopeTag key={r.id} role={r.role.displayName} organization={r.organization} inactive={!r.role.isActive} />
              ))}
            {u.userRoles.every((r) => !r.isActive) && '—'}
          </Descriptions.Item>
        </Descriptions>
      )}
      {u && <UserHistory userId={Number(u.id)} />}
    </Modal>
  );
}
