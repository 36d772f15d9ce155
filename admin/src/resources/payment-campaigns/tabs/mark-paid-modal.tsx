import { formatVnd, fullName, MANUAL_METHODS, markPaidSchema, type Assignment } from '@doanhoi/shared';
import { useCustomMutation, useTranslate } from '@refinedev/core';
import { useEffect } from 'react';
import { Descriptions, Form, Input, InputNumber, Modal, Radio } from 'antd';
import { useDialogFocus } from '../../../components/dialog-focus';
import { zodRule } from '../../../components/form-rules';
import { apiUrl } from '../use-refresh';

const rule = zodRule(markPaidSchema);

/** Mark paid (001 §4, issue 11 item 13): how the money came in (cash or transfer) and a note, recorded with the payment. */
export function MarkPaidModal({ assignment, onClose, onDone }: { assignment: Assignment | null; onClose: () => void; onDone: () => void }) {
  const t = useTranslate();
  const [form] = Form.useForm<{ method: (typeof MANUAL_METHODS)[number]; amount?: number; note?: string }>();
  const { mutate, mutation } = useCustomMutation();
  const focus = useDialogFocus();
  // Each opening starts from this assignment's balance, not the last dialog's values.
  useEffect(() => {
    if (assignment) form.resetFields();
  }, [assignment, form]);
  const save = async () => {
    if (!assignment) return;
    const values = await form.validateFields();
    mutate(
      {
        url: apiUrl(`/payment/assignments/${assignment.id}/mark-paid`),
        method: 'patch',
        values,
        successNotification: () => ({ type: 'success', message: t('campaigns:assignments.mark-paid.done') }),
      },
      { onSuccess: () => (form.resetFields(), onDone()) },
    );
  };
  return (
    <Modal
      open={assignment !== null}
      title={t('campaigns:assignments.mark-paid.title')}
      okText={t('campaigns:assignments.mark-paid.ok')}
      cancelText={t('buttons.cancel')}
      onOk={() => void save()}
      onCancel={onClose}
      afterOpenChange={focus.afterOpenChange}
      confirmLoading={mutation.isPending}
      okButtonProps={{ 'data-testid': 'mark-paid-confirm' } as never}
      destroyOnHidden
    >
      {assignment && (
        <Descriptions column={1} size="small" className="bulk-bar">
          <Descriptions.Item
            label={t('campaigns:assignments.member')}
          >{`${fullName(assignment.user)} (${assignment.user.code})`}</Descriptions.Item>
          <Descriptions.Item label={t('campaigns:assignments.feeLevel')}>{assignment.feeLevel.levelName}</Descriptions.Item>
          <Descriptions.Item label={t('campaigns:assignments.amount')}>{formatVnd(assignment.amount)}</Descriptions.Item>
          {(assignment.paidAmount ?? 0) > 0 && (
            <Descriptions.Item label={t('campaigns:assignments.alreadyPaid')}>{formatVnd(assignment.paidAmount ?? 0)}</Descriptions.Item>
          )}
        </Descriptions>
      )}
      <div ref={focus.ref}>
        <Form
          form={form}
          layout="vertical"
          onFinish={() => void save()}
          initialValues={{ method: 'cash', amount: assignment ? (assignment.remainingAmount ?? assignment.amount) : undefined }}
          data-testid="mark-paid-form"
        >
          <Form.Item label={t('campaigns:assignments.mark-paid.method')} name="method" rules={[rule]}>
            <Radio.Group options={MANUAL_METHODS.map((m) => ({ value: m, label: t(`campaigns:history.${m}`) }))} />
          </Form.Item>
          {/* The money handed over: less leaves a balance due, more a refund due (payments API). */}
          <Form.Item
            label={t('campaigns:assignments.mark-paid.amount')}
            name="amount"
            rules={[rule]}
            extra={t('campaigns:assignments.mark-paid.amountHint')}
          >
            <InputNumber step={1000} className="full-width" />
          </Form.Item>
          <Form.Item label={t('campaigns:assignments.mark-paid.note')} name="note" rules={[rule]}>
            <Input.TextArea rows={3} maxLength={1000} />
          </Form.Item>
          {/* Enter in the amount submits the dialog (000 keyboard use). */}
          <button type="submit" hidden aria-hidden />
        </Form>
      </div>
    </Modal>
  );
}
