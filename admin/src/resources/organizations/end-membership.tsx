import { fullName, MEMBERSHIP_END_REASONS, type OrganizationMember, type OrganizationRef } from '@doanhoi/shared';
import { useSelect } from '@refinedev/antd';
import { useCustomMutation, useTranslate } from '@refinedev/core';
import { Alert, App, DatePicker, Form, Input, Modal, Radio, Select, type ButtonProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { API_URL } from '../../providers/http';

interface Values {
  reason: string;
  endedAt: Dayjs;
  note?: string;
  selection: 'selected' | 'class';
  classId?: number;
}

const searchByQ = (value: string) => [{ field: 'q', operator: 'contains' as const, value }];

/**
 * "Kết thúc sinh hoạt" (issue 30 item 2): one member (`member`) or, as the year-end action, the
 * selected members or every active member of a class (`bulk`), with a reason, a date and a note.
 * The member leaves this unit, the units beneath it and each parent left empty; the API says which.
 */
export function EndMembershipModal({
  org,
  member,
  bulk,
  onClose,
  onDone,
}: {
  org: Pick<OrganizationRef, 'id' | 'name'>;
  member: OrganizationMember | null;
  /** The selected members of the year-end action; null when it is closed. */
  bulk: OrganizationMember[] | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const t = useTranslate();
  const { notification } = App.useApp();
  const [form] = Form.useForm<Values>();
  const open = member !== null || bulk !== null;
  const selection = Form.useWatch('selection', form);
  const classes = useSelect<{ id: number; name: string }>({
    resource: 'classes',
    optionLabel: 'name',
    optionValue: 'id',
    pagination: { pageSize: 50, mode: 'server' },
    onSearch: searchByQ,
    queryOptions: { enabled: bulk !== null },
  });

  useEffect(() => {
    if (open)
      form.setFieldsValue({
        reason: bulk ? 'graduated' : undefined,
        endedAt: dayjs(),
        note: '',
        selection: bulk && bulk.length ? 'selected' : 'class',
        classId: undefined,
      });
  }, [open, bulk, form]);

  const { mutateAsync } = useCustomMutation<{ message: string }>();

  async function save() {
    const v = await form.validateFields();
    const base = { reason: v.reason, endedAt: v.endedAt.format('YYYY-MM-DD'), note: v.note?.trim() || undefined };
    try {
      const { data: res } = await mutateAsync({
        url: member
          ? `${API_URL}/organizations/${org.id}/members/${member.user.id}/end`
          : `${API_URL}/organizations/${org.id}/members/bulk-end`,
        method: 'post',
        values:
          member || v.selection !== 'class'
            ? { ...base, ...(!member && { userIds: bulk!.map((m) => m.user.id) }) }
            : { ...base, classId: v.classId },
        successNotification: false,
        errorNotification: false,
      });
      notification.success({ message: t('organizations:endMembership.done'), description: res.message });
      onDone();
      onClose();
    } catch (e) {
      notification.error({ message: (e as Error).message });
    }
  }

  return (
    <Modal
      open={open}
      title={
        member
          ? t('organizations:endMembership.title', { name: fullName(member.user) })
          : t('organizations:endMembership.bulkTitle', { name: org.name })
      }
      onOk={() => void save()}
      onCancel={onClose}
      okText={t('organizations:endMembership.action')}
      okButtonProps={{ danger: true, 'data-testid': 'end-membership-confirm' } as ButtonProps}
      cancelText={t('buttons.cancel')}
      destroyOnHidden
    >
      <Alert type="info" showIcon message={t('organizations:endMembership.hint')} className="section-title" />
      <Form form={form} layout="vertical" data-testid="end-membership-form">
        {bulk && (
          <Form.Item label={t('organizations:endMembership.selection')} name="selection">
            <Radio.Group data-testid="end-selection">
              <Radio value="selected" disabled={bulk.length === 0}>
                {t('organizations:endMembership.selected', { count: bulk.length })}
              </Radio>
              <Radio value="class" data-testid="end-by-class">
                {t('organizations:endMembership.byClass')}
              </Radio>
            </Radio.Group>
          </Form.Item>
        )}
        {bulk && selection === 'class' && (
          <Form.Item
            label={t('organizations:endMembership.class')}
            name="classId"
            rules={[{ required: true, message: t('organizations:endMembership.classRequired') }]}
          >
            <Select {...classes.selectProps} showSearch data-testid="end-class" />
          </Form.Item>
        )}
        <Form.Item
          label={t('organizations:endMembership.reason')}
          name="reason"
          rules={[{ required: true, message: t('validation:endReason') }]}
        >
          <Select
            options={MEMBERSHIP_END_REASONS.map((r) => ({ value: r, label: t(`organizations:endMembership.reasons.${r}`) }))}
            data-testid="end-reason"
          />
        </Form.Item>
        <Form.Item
          label={t('organizations:endMembership.endedAt')}
          name="endedAt"
          rules={[{ required: true, message: t('validation:dayInvalid') }]}
        >
          <DatePicker format="DD/MM/YYYY" className="full-width" data-testid="end-date" />
        </Form.Item>
        <Form.Item label={t('organizations:endMembership.note')} name="note" rules={[{ max: 500 }]}>
          <Input.TextArea rows={2} data-testid="end-note" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
