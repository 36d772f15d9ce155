import type { SendRemindersResult } from '@doanhoi/shared';
import { useCustomMutation, useTranslate } from '@refinedev/core';
import { Alert, App, Button, Space } from 'antd';
import { useState } from 'react';
import { apiUrl } from '../use-refresh';

interface Props {
  campaignId: number;
  /** Assignments ticked in the table (unpaid ones only). */
  selectedIds: number[];
  onSent: () => void;
}

/** "Remind all unpaid" and "remind selected" (issue 15.2), with what the server did shown until closed. */
export function RemindBar({ campaignId, selectedIds, onSent }: Props) {
  const t = useTranslate();
  const { modal } = App.useApp();
  const { mutate, mutation } = useCustomMutation<{ data: SendRemindersResult }>();
  const [result, setResult] = useState<SendRemindersResult | null>(null);

  const send = (assignmentIds?: number[]) =>
    new Promise<void>((resolve) =>
      mutate(
        {
          url: apiUrl(`/payment-campaigns/${campaignId}/reminders`),
          method: 'post',
          values: assignmentIds ? { assignmentIds } : {},
          successNotification: false,
        },
        {
          onSuccess: (res) => {
            setResult(res.data.data);
            onSent();
          },
          onSettled: () => resolve(),
        },
      ),
    );
  const remindAll = () =>
    modal.confirm({
      title: t('reminders:confirmAllTitle'),
      content: t('reminders:confirmAll'),
      okText: t('reminders:confirmOk'),
      cancelText: t('buttons.cancel'),
      onOk: () => send(),
    });

  const details =
    result &&
    [
      result.skippedPaid > 0 && t('reminders:resultPaid', { count: result.skippedPaid }),
      // Issue 25 item 15: a member's daily limit over every campaign, and members who left the campaign's units.
      result.skippedLimit > 0 && t('reminders:resultLimit', { count: result.skippedLimit }),
      result.skippedOutside > 0 && t('reminders:resultOutside', { count: result.skippedOutside }),
      result.emailed > 0 && t('reminders:resultEmailed', { count: result.emailed }),
      result.outboxed > 0 && t('reminders:resultOutbox', { count: result.outboxed }),
      result.failed > 0 && t('reminders:resultFailed', { count: result.failed }),
    ].filter(Boolean);

  return (
    <Space direction="vertical" className="full-width">
      <Space wrap>
        <Button onClick={remindAll} loading={mutation.isPending} data-testid="remind-all">
          {t('reminders:remindAll')}
        </Button>
        <Button
          disabled={selectedIds.length === 0}
          onClick={() => void send(selectedIds)}
          loading={mutation.isPending}
          data-testid="remind-selected"
        >
          {t('reminders:remindSelected', { count: selectedIds.length })}
        </Button>
      </Space>
      {result && (
        <Alert
          type={result.failed > 0 ? 'warning' : 'success'}
          showIcon
          closable
          onClose={() => setResult(null)}
          message={t('reminders:result', { sent: result.sent, skipped: result.skippedRecent })}
          description={details && details.length > 0 ? details.join(' ') : undefined}
          data-testid="remind-result"
        />
      )}
    </Space>
  );
}
