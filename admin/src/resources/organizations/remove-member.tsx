import { fullName, type MemberRemovalPlan, type OrganizationDetail, type OrganizationMember, type OrganizationRef } from '@doanhoi/shared';
import { useCustomMutation, useTranslate } from '@refinedev/core';
import { Alert, App, Modal, Radio, Space, Spin, Tag, Typography, type ButtonProps } from 'antd';
import { useEffect, useState } from 'react';
import { API_URL } from '../../providers/http';
import { useOrganizationRead } from './data';

const names = (orgs: OrganizationRef[]) => orgs.map((o) => o.name).join(', ');

/**
 * "Xóa khỏi tổ chức" (issue 25 item 11): the member leaves a level — this unit, or a parent they
 * belong to as far as the caller may remove — and every unit of theirs beneath it. Each choice
 * names exactly the units they leave and those they stay in; the API's 000 §4 choice is preselected.
 */
export function RemoveMemberModal({
  org,
  member,
  onClose,
  onRemoved,
}: {
  org: OrganizationDetail;
  member: OrganizationMember | null;
  onClose: () => void;
  onRemoved: () => void;
}) {
  const t = useTranslate();
  const { notification } = App.useApp();
  const userId = member?.user.id;
  const plan = useOrganizationRead<MemberRemovalPlan>(`/${org.id}/members/${userId}/removal`, { enabled: userId != null, fresh: true });
  const [from, setFrom] = useState<number | null>(null);
  const { mutateAsync, mutation } = useCustomMutation<{ removed: OrganizationRef[]; staysIn: OrganizationRef[] }>();
  const saving = mutation.isPending;
  useEffect(() => setFrom(plan.data?.recommended ?? null), [plan.data]);
  const chosen = plan.data?.options.find((o) => o.organization.id === from);
  const name = member ? fullName(member.user) : '';

  async function remove() {
    if (!member || !chosen) return;
    try {
      const { data: res } = await mutateAsync({
        url: `${API_URL}/organizations/${org.id}/members/${member.user.id}?from=${chosen.organization.id}`,
        method: 'delete',
        values: {},
        successNotification: false,
        errorNotification: false,
      });
      notification.success({
        message: t('organizations:members.removedFrom', { name, units: names(res.removed) }),
        description: res.staysIn.length ? t('organizations:members.stillIn', { units: names(res.staysIn) }) : undefined,
      });
      onRemoved();
      onClose();
    } catch (e) {
      notification.error({ message: t('organizations:members.removeFailed'), description: (e as Error).message });
    }
  }

  return (
    <Modal
      open={member !== null}
      title={t('organizations:members.removeTitle')}
      onOk={() => void remove()}
      onCancel={onClose}
      okText={t('organizations:members.remove')}
      okButtonProps={{ danger: true, disabled: !chosen, 'data-testid': 'confirm-remove' } as ButtonProps}
      cancelText={t('buttons.cancel')}
      confirmLoading={saving}
      destroyOnHidden
    >
      <div data-testid="remove-member-dialog">
        {plan.query.isLoading && <Spin />}
        {plan.query.isError && <Alert type="error" showIcon message={plan.query.error.message} />}
        {plan.data && (
          <Space direction="vertical" className="full-width">
            <Typography.Text>{t('organizations:members.removeFromWhere', { name })}</Typography.Text>
            <Radio.Group value={from} onChange={(e) => setFrom(e.target.value as number)} className="full-width">
              <Space direction="vertical" className="full-width">
                {plan.data.options.map((o) => (
                  <Radio key={o.organization.id} value={o.organization.id}>
                    <span data-testid="remove-option">
                      {t(o.leaves.length === 1 ? 'organizations:members.removeOnlyHere' : 'organizations:members.removeFromLevel', {
                        org: o.organization.name,
                      })}
                      {o.organization.id === plan.data?.recommended && (
                        <Tag className="tag-gap" color="blue">
                          {t('organizations:members.recommended')}
                        </Tag>
                      )}
                    </span>
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
            {chosen && (
              <Alert
                type="warning"
                showIcon
                data-testid="remove-summary"
                message={t('organizations:members.leaves', { name, units: names(chosen.leaves) })}
                description={
                  chosen.staysIn.length
                    ? t('organizations:members.stays', { units: names(chosen.staysIn) })
                    : t('organizations:members.staysNowhere')
                }
              />
            )}
          </Space>
        )}
      </div>
    </Modal>
  );
}
