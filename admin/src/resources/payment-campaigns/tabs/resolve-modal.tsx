import { formatVnd, resolveAttentionSchema } from '@doanhoi/shared';
import { useCustomMutation, useTranslate } from '@refinedev/core';
import { Alert, Form, Input, Modal, Radio } from 'antd';
import { zodRule } from '../../../components/form-rules';
import { apiUrl } from '../use-refresh';
import type { HistoryItem } from './payment-history';
import { useDialogFocus } from '../../../components/dialog-focus';

const rule = zodRule(resolveAttentionSchema);

/**
 * The treasurer's answer to money that did not fit its fee (POST /payment-admin/orders/{id}/resolve):
 * a refund due is refunded or kept; a balance due is waived (accepted). Settling a balance is the
 * member paying the rest, not an action here.
 */
export function ResolveModal({ order, onClose, onDone }: { order: HistoryItem | null; onClose: () => void; onDone: () => void }) {
  const t = useTranslate();
  const [form] = Form.useForm<{ resolution: 'REFUNDED' | 'ACCEPTED'; note?: string }>();
  const { mutate, mutation } = useCustomMutation();
  const refund = order?.attention === 'REFUND_DUE';
  const save = async () => {
    if (!order) return;
    const values = await form.validateFields();
    mutate(
      {
        url: apiUrl(`/payment-admin/orders/${order.id}/resolve`),
        method: 'post',
        values,
        successNotification: () => ({ type: 'success', message: t('campaigns:attention.resolved') }),
      },
      { onSuccess: () => (form.resetFields(), onDone()) },
    );
  };
  const focus = useDialogFocus();
  return (
    <Modal
      open={order !== null}
      title={t('campaigns:attention.resolveTitle')}
      okText={t('campaigns:attention.resolve')}
      cancelText={t('buttons.cancel')}
      onOk={() => void save()}
      onCancel={onClose}
      afterOpenChange={focus.afterOpenChange}
      confirmLoading={mutation.isPending}
      okButtonProps={{ 'data-testid': 'resolve-confirm' } as never}
      destroyOnHidden
    >
      {order && (
        <Alert
          type="warning"
          showIcon
          className="bulk-bar"
          message={t(`campaigns:attention.explain.${order.attention_reason ?? order.attention}`, {
            amount: formatVnd(order.attention_amount ?? 0),
          })}
        />
      )}
      <div ref={focus.ref}>
        <Form form={form} layout="vertical" initialValues={{ resolution: refund ? 'REFUNDED' : 'ACCEPTED' }} data-testid="resolve-form">
          <Form.Item label={t('campaigns:attention.resolution')} name="resolution" rules={[rule]}>
            <Radio.Group
              options={(refund ? (['REFUNDED', 'ACCEPTED'] as const) : (['ACCEPTED'] as const)).map((r) => ({
                value: r,
                label: t(`campaigns:attention.${refund ? 'refund' : 'balance'}.${r}`),
              }))}
            />
          </Form.Item>
          <Form.Item label={t('campaigns:assignments.mark-paid.note')} name="note" rules={[rule]}>
            <Input.TextArea rows={3} maxLength={1000} />
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
