import { formatDateTime, formatVnd, fullName, REASON_MAX, reversePaymentSchema } from '@doanhoi/shared';
import { useCustomMutation, useTranslate } from '@refinedev/core';
import { Alert, Descriptions, Form, Input, Modal } from 'antd';
import { zodRule } from '../../../components/form-rules';
import { apiUrl } from '../use-refresh';
import type { HistoryItem } from './payment-history';
import { useDialogFocus } from '../../../components/dialog-focus';

const rule = zodRule(reversePaymentSchema);

/** Can this history row be reversed here: a manual payment in force, not itself a reversing entry. */
export const reversible = (r: HistoryItem) =>
  r.payment_method === 'MANUAL' && r.status === 'PAID' && !r.reversed_at && r.reverses_order_id == null && r.amount > 0;

/**
 * Reverse one mistaken mark-paid from the payment history (issue 15.3): the same API as the
 * assignments tab, naming this order (orderId) rather than the fee's latest manual payment.
 */
export function ReverseOrderModal({ order, onClose, onDone }: { order: HistoryItem | null; onClose: () => void; onDone: () => void }) {
  const t = useTranslate();
  const [form] = Form.useForm<{ reason: string }>();
  const { mutate, mutation } = useCustomMutation();
  const save = async () => {
    if (!order) return;
    const { reason } = await form.validateFields();
    mutate(
      {
        url: apiUrl(`/payment/assignments/${order.assignment.id}/reverse-payment`),
        method: 'post',
        values: { reason, orderId: order.id },
        successNotification: () => ({ type: 'success', message: t('adjustments:done.reverse') }),
      },
      { onSuccess: () => (form.resetFields(), onDone()) },
    );
  };
  const focus = useDialogFocus();
  return (
    <Modal
      open={order !== null}
      title={t('adjustments:title.reverse')}
      okText={t('adjustments:ok.reverse')}
      okButtonProps={{ danger: true, 'data-testid': 'reverse-order-confirm' } as never}
      cancelText={t('buttons.cancel')}
      onOk={() => void save()}
      onCancel={onClose}
      afterOpenChange={focus.afterOpenChange}
      confirmLoading={mutation.isPending}
      destroyOnHidden
    >
      {order && (
        <Descriptions column={1} size="small" className="bulk-bar">
          <Descriptions.Item
            label={t('campaigns:assignments.member')}
          >{`${fullName(order.assignment.user)} (${order.assignment.user.code})`}</Descriptions.Item>
          <Descriptions.Item label={t('campaigns:history.orderCode')}>{order.order_code}</Descriptions.Item>
          <Descriptions.Item label={t('campaigns:assignments.amount')}>{formatVnd(order.amount)}</Descriptions.Item>
          <Descriptions.Item label={t('campaigns:history.time')}>{formatDateTime(order.paid_at ?? order.created_at)}</Descriptions.Item>
        </Descriptions>
      )}
      <Alert type="warning" showIcon className="bulk-bar" message={t('adjustments:warning.reverseOrder')} />
      <div ref={focus.ref}>
        <Form form={form} layout="vertical" data-testid="reverse-order-form">
          <Form.Item name="reason" label={t('adjustments:reason')} rules={[rule]}>
            <Input.TextArea rows={3} maxLength={REASON_MAX} showCount data-testid="reverse-order-reason" />
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
