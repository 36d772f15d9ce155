import {
  exemptAssignmentSchema,
  formatVnd,
  fullName,
  REASON_MAX,
  reduceAssignmentSchema,
  reversePaymentSchema,
  type Assignment,
} from '@doanhoi/shared';
import { useCustomMutation, useTranslate } from '@refinedev/core';
import { Alert, Descriptions, Form, Input, InputNumber, Modal, Radio } from 'antd';
import { useEffect } from 'react';
import { zodRule } from '../../../components/form-rules';
import { apiUrl } from '../use-refresh';
import { useDialogFocus } from '../../../components/dialog-focus';

/** exempt/reduce: the treasurer's choice in one dialog; revoke: undo it; reverse: undo a manual mark-paid. */
export type AdjustAction = 'adjust' | 'revoke' | 'reverse';

const reduceRule = zodRule(reduceAssignmentSchema);
const reasonRule = zodRule(exemptAssignmentSchema);
const reverseRule = zodRule(reversePaymentSchema);

interface Values {
  kind: 'exempt' | 'reduce';
  amount?: number;
  reason: string;
}

/**
 * Exempt (miễn) or reduce (giảm) a member's fee, undo that, or reverse a mistaken mark-paid
 * (issue 15.3). Each needs a reason, which the audit log and the export keep.
 */
export function AdjustModal({
  assignment,
  action,
  onClose,
  onDone,
}: {
  assignment: Assignment | null;
  action: AdjustAction;
  onClose: () => void;
  onDone: () => void;
}) {
  const t = useTranslate();
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('kind', form);
  const { mutate, mutation } = useCustomMutation();
  useEffect(() => {
    if (assignment) form.resetFields();
  }, [assignment, action, form]);

  const save = async () => {
    if (!assignment) return;
    const v = await form.validateFields();
    const [path, values] =
      action === 'revoke'
        ? ['revoke-adjustment', { reason: v.reason }]
        : action === 'reverse'
          ? ['reverse-payment', { reason: v.reason }]
          : v.kind === 'exempt'
            ? ['exempt', { reason: v.reason }]
            : ['reduce', { amount: v.amount, reason: v.reason }];
    const done = action === 'adjust' ? v.kind : action;
    mutate(
      {
        url: apiUrl(`/payment/assignments/${assignment.id}/${path}`),
        method: 'post',
        values,
        successNotification: () => ({ type: 'success', message: t(`adjustments:done.${done}`) }),
      },
      { onSuccess: () => onDone() },
    );
  };

  const focus = useDialogFocus();

  return (
    <Modal
      open={assignment !== null}
      title={t(`adjustments:title.${action}`)}
      okText={t(`adjustments:ok.${action}`)}
      okButtonProps={{ danger: action !== 'adjust', 'data-testid': 'adjust-confirm' } as never}
      cancelText={t('buttons.cancel')}
      onOk={() => void save()}
      onCancel={onClose}
      afterOpenChange={focus.afterOpenChange}
      confirmLoading={mutation.isPending}
      destroyOnHidden
    >
      {assignment && (
        <Descriptions column={1} size="small" className="bulk-bar">
          <Descriptions.Item
            label={t('campaigns:assignments.member')}
          >{`${fullName(assignment.user)} (${assignment.user.code})`}</Descriptions.Item>
          <Descriptions.Item label={t('campaigns:assignments.amount')}>{formatVnd(assignment.amount)}</Descriptions.Item>
          {assignment.originalAmount != null && (
            <Descriptions.Item label={t('adjustments:original')}>{formatVnd(assignment.originalAmount)}</Descriptions.Item>
          )}
          {(assignment.paidAmount ?? 0) > 0 && (
            <Descriptions.Item label={t('campaigns:assignments.alreadyPaid')}>{formatVnd(assignment.paidAmount ?? 0)}</Descriptions.Item>
          )}
        </Descriptions>
      )}
      {action !== 'adjust' && <Alert type="warning" showIcon className="bulk-bar" message={t(`adjustments:warning.${action}`)} />}
      <div ref={focus.ref}>
        <Form form={form} layout="vertical" initialValues={{ kind: 'exempt' }} data-testid="adjust-form">
          {action === 'adjust' && (
            <Form.Item name="kind" label={t('adjustments:kind')}>
              <Radio.Group
                options={(['exempt', 'reduce'] as const).map((k) => ({ value: k, label: t(`adjustments:kinds.${k}`) }))}
                optionType="button"
                buttonStyle="solid"
                data-testid="adjust-kind"
              />
            </Form.Item>
          )}
          {action === 'adjust' && kind === 'reduce' && (
            <Form.Item
              name="amount"
              label={t('adjustments:amount')}
              extra={assignment ? t('adjustments:amountHint', { amount: formatVnd(assignment.amount) }) : undefined}
              rules={[
                reduceRule,
                // Below the current amount: the API answers 422 otherwise, the form says it first.
                {
                  validator: (_, v?: number) =>
                    v == null || !assignment || v < assignment.amount
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('adjustments:amountTooHigh'))),
                },
              ]}
            >
              <InputNumber step={1000} className="full-width" data-testid="adjust-amount" />
            </Form.Item>
          )}
          <Form.Item name="reason" label={t('adjustments:reason')} rules={[action === 'reverse' ? reverseRule : reasonRule]}>
            <Input.TextArea rows={3} maxLength={REASON_MAX} showCount data-testid="adjust-reason" />
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
