import { reminderScheduleSchema, type ReminderScheduleInput } from '@doanhoi/shared';
import { useCustom, useCustomMutation, useTranslate } from '@refinedev/core';
import { Button, Card, Form, InputNumber, Space, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { fieldAwareNotification } from '../../../components/form-errors';
import { zodRule } from '../../../components/form-rules';
import { apiUrl } from '../use-refresh';

const rule = zodRule(reminderScheduleSchema);
interface Values {
  before: boolean;
  daysBefore: number | null;
  onOverdue: boolean;
}

/** The campaign's automatic reminders: N days before the due date, and on the day a fee becomes overdue. */
export function ScheduleCard({ campaignId, editable }: { campaignId: number; editable: boolean }) {
  const t = useTranslate();
  const [form] = Form.useForm<Values>();
  const url = apiUrl(`/payment-campaigns/${campaignId}/reminder-schedule`);
  const { query, result } = useCustom<{ data: ReminderScheduleInput }>({ url, method: 'get' });
  const current = query.isSuccess ? (result.data as { data: ReminderScheduleInput }).data : null;
  const { mutate, mutation } = useCustomMutation();
  const before = Form.useWatch('before', form);

  useEffect(() => {
    if (current)
      form.setFieldsValue({ before: current.daysBefore != null, daysBefore: current.daysBefore ?? 3, onOverdue: current.onOverdue });
  }, [current, form]);

  const save = (v: Values) =>
    mutate({
      url,
      method: 'put',
      values: { daysBefore: v.before ? v.daysBefore : null, onOverdue: v.onOverdue },
      successNotification: () => ({ type: 'success', message: t('reminders:schedule.saved') }),
      errorNotification: fieldAwareNotification(() => form),
    });

  return (
    <Card size="small" title={t('reminders:schedule.title')} data-testid="reminder-schedule">
      <Form form={form} layout="inline" onFinish={save} disabled={!editable || !current}>
        <Form.Item name="before" valuePropName="checked" label={t('reminders:schedule.before')}>
          <Switch data-testid="schedule-before" />
        </Form.Item>
        <Form.Item name="daysBefore" rules={before ? [rule] : []} label={t('reminders:schedule.daysBefore')}>
          <InputNumber disabled={!before} addonAfter={t('reminders:schedule.days')} data-testid="schedule-days" />
        </Form.Item>
        <Form.Item name="onOverdue" valuePropName="checked" label={t('reminders:schedule.onOverdue')}>
          <Switch data-testid="schedule-overdue" />
        </Form.Item>
        {editable && (
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={mutation.isPending} data-testid="schedule-save">
              {t('buttons.save')}
            </Button>
          </Form.Item>
        )}
      </Form>
      <Space direction="vertical" size={0} className="schedule-hint">
        <Typography.Text type="secondary">{t('reminders:schedule.hint')}</Typography.Text>
        {!editable && <Typography.Text type="secondary">{t('reminders:schedule.readOnly')}</Typography.Text>}
      </Space>
    </Card>
  );
}
