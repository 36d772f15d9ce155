import { CheckCircleOutlined, ClockCircleOutlined, CloseCircleOutlined, EditOutlined } from '@ant-design/icons';
import type { Campaign, CampaignStatus } from '@doanhoi/shared';
import { useCustomMutation, useDelete, useTranslate } from '@refinedev/core';
import { App, Tag } from 'antd';
import { activationGaps } from './rules';
import { apiUrl, usePaymentsRefresh } from './use-refresh';

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

/** Why "Xóa" or "Kích hoạt" would be refused, in the screen's language; null when it would be accepted (issue 25 item 6). */
export function useBlockReasons() {
  const t = useTranslate();
  return {
    remove: (c: Campaign) =>
      c.deleteBlockedReason ? t(`campaigns:deleteBlocked.${c.deleteBlockedReason}`, { count: c.paymentCount }) : null,
    activate: (c: Campaign) => {
      const gaps = activationGaps(c);
      return gaps.length
        ? t('campaigns:activateBlocked.title', { reasons: gaps.map((g) => t(`campaigns:activateBlocked.${g}`)).join(', ') })
        : null;
    },
  };
}

/**
 * Status changes and deletion behind a confirm dialog, through Refine's mutations (so the campaign
 * list and page share one cache); the caller gets the new campaign (or null once deleted).
 */
export function useCampaignActions(onChanged: (c: Campaign | null, id: number) => void, onError?: (message: string) => void) {
  const t = useTranslate();
  const { modal } = App.useApp();
  const refresh = usePaymentsRefresh();
  const { mutateAsync: custom } = useCustomMutation<Campaign | { data: Campaign }>();
  const { mutateAsync: deleteOne } = useDelete();
  // With onError the caller shows the message (the page's banner); otherwise Refine's toast does.
  const errorNotification = onError ? (false as const) : undefined;
  const run = async (task: () => Promise<unknown>) => {
    try {
      await task();
    } catch (e) {
      onError?.((e as Error).message);
      refresh();
    }
  };
  return {
    transition(c: Campaign, action: Transition) {
      modal.confirm({
        title: t(`campaigns:confirm.${action}.title`),
        content: t(`campaigns:confirm.${action}.message`, { name: c.name }),
        okText: t(`campaigns:actions.${action}`),
        okButtonProps: { danger: action === 'cancel' },
        cancelText: t('buttons.cancel'),
        onOk: () =>
          run(async () => {
            const res = await custom({
              url: apiUrl(`/payment-campaigns/${c.id}/${action}`),
              method: 'post',
              values: {},
              successNotification: () => ({ type: 'success', message: t(`campaigns:done.${action}`) }),
              errorNotification,
            });
            // 001 §7: the campaign may come inside a data field.
            const body = res.data;
            onChanged(body && 'data' in body ? body.data : (body as Campaign), c.id);
            refresh();
          }),
      });
    },
    remove(c: Campaign) {
      modal.confirm({
        title: t('campaigns:confirm.delete.title'),
        content: t('campaigns:confirm.delete.message', { name: c.name }),
        okText: t('buttons.delete'),
        okButtonProps: { danger: true },
        cancelText: t('buttons.cancel'),
        onOk: () =>
          run(async () => {
            await deleteOne({
              resource: 'payment-campaigns',
              id: c.id,
              invalidates: ['list'],
              successNotification: () => ({ type: 'success', message: t('campaigns:done.delete') }),
              errorNotification,
            });
            onChanged(null, c.id);
          }),
      });
    },
  };
}
