import { CheckCircleOutlined, ClockCircleOutlined, CloseCircleOutlined, EditOutlined } from '@ant-design/icons';
import type { Campaign, CampaignStatus } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { App, Tag } from 'antd';
import { apiRequest } from '../../providers/http';

const LOOK: Record<CampaignStatus, { color: string; icon: React.ReactNode }> = {
  DRAFT: { color: 'default', icon: <EditOutlined /> },
  ACTIVE: { color: 'processing', icon: <ClockCircleOutlined /> },
  COMPLETED: { color: 'success', icon: <CheckCircleOutlined /> },
  CANCELLED: { color: 'error', icon: <CloseCircleOutlined /> },
};

export function CampaignStatusTag({ status }: { status: CampaignStatus }) {
  const t = useTranslate();
  return (
    <Tag color={LOOK[status].color} icon={LOOK[status].icon} data-testid="campaign-status" data-status={status}>
      {t(`campaigns:status.${status}`)}
    </Tag>
  );
}

export type Transition = 'activate' | 'complete' | 'cancel';

/** Which status changes and edits each status allows (001 §4: a DRAFT is edited, never deleted; the list shows no "activate"). */
export const ACTIONS_BY_STATUS: Record<CampaignStatus, { transitions: Transition[]; edit: boolean; delete: boolean }> = {
  DRAFT: { transitions: ['activate'], edit: true, delete: false },
  ACTIVE: { transitions: ['complete', 'cancel'], edit: false, delete: false },
  COMPLETED: { transitions: [], edit: false, delete: true },
  CANCELLED: { transitions: [], edit: false, delete: true },
};

/** Status changes and deletion behind a confirm dialog; the caller gets the new campaign (or null once deleted). */
export function useCampaignActions(onChanged: (c: Campaign | null, id: number) => void, onError?: (message: string) => void) {
  const t = useTranslate();
  const { modal, notification } = App.useApp();
  const fail = (e: unknown) => {
    const message = (e as Error).message;
    if (onError) onError(message);
    else notification.error({ message });
  };
  return {
    transition(c: Campaign, action: Transition) {
      modal.confirm({
        title: t(`campaigns:confirm.${action}.title`),
        content: t(`campaigns:confirm.${action}.message`, { name: c.name }),
        okText: t(`campaigns:actions.${action}`),
        okButtonProps: { danger: action === 'cancel' },
        cancelText: t('buttons.cancel'),
        onOk: async () => {
          try {
            const res = await apiRequest<Campaign | { data: Campaign }>(`/payment-campaigns/${c.id}/${action}`, { method: 'POST' });
            // 001 §7: the campaign may come inside a data field.
            onChanged('data' in res ? res.data : res, c.id);
            notification.success({ message: t(`campaigns:done.${action}`) });
          } catch (e) {
            fail(e);
          }
        },
      });
    },
    remove(c: Campaign) {
      modal.confirm({
        title: t('campaigns:confirm.delete.title'),
        content: t('campaigns:confirm.delete.message', { name: c.name }),
        okText: t('buttons.delete'),
        okButtonProps: { danger: true },
        cancelText: t('buttons.cancel'),
        onOk: async () => {
          try {
            await apiRequest(`/payment-campaigns/${c.id}`, { method: 'DELETE' });
            onChanged(null, c.id);
            notification.success({ message: t('campaigns:done.delete') });
          } catch (e) {
            fail(e);
          }
        },
      });
    },
  };
}
