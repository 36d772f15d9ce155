import { createFeeLevelSchema, formatVnd, type FeeLevel } from '@doanhoi/shared';
import { useModalForm } from '../../../components/form-errors';
import { useCustomMutation, useDelete, useList, useTranslate } from '@refinedev/core';
import { App, Button, Form, Grid, Input, InputNumber, List, Modal, Space, Tag, Typography } from 'antd';
import { WithReason } from '../../../components/blocked';
import { useDialogFocus } from '../../../components/dialog-focus';
import { zodRule } from '../../../components/form-rules';
import { apiUrl, usePaymentsRefresh } from '../use-refresh';

const rule = zodRule(createFeeLevelSchema);

function FeeLevelModal({
  action,
  form,
  campaignId,
}: {
  action: 'create' | 'edit';
  form: ReturnType<typeof useModalForm<FeeLevel>>;
  campaignId: number;
}) {
  const t = useTranslate();
  const focus = useDialogFocus();
  return (
    <Modal
      {...form.modalProps}
      afterOpenChange={focus.afterOpenChange}
      title={t(action === 'create' ? 'campaigns:levels.add' : 'campaigns:levels.edit')}
      okText={t('buttons.save')}
      cancelText={t('buttons.cancel')}
    >
      <div ref={focus.ref}>
        <Form
          {...form.formProps}
          layout="vertical"
          data-testid={`fee-level-${action}-form`}
          onFinish={(v) => form.formProps.onFinish?.(action === 'create' ? { ...(v as object), campaignId } : v)}
        >
          <Form.Item label={t('campaigns:levels.name')} name="levelName" rules={[rule]} required>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item label={t('campaigns:levels.amount')} name="amount" rules={[rule]} required>
            <InputNumber step={1000} className="full-width" />
          </Form.Item>
          <Form.Item label={t('campaigns:levels.description')} name="description" rules={[rule]}>
            <Input.TextArea rows={2} maxLength={1000} />
          </Form.Item>
          {/* 001 §3: a fee level has a note beside its description; members never see it (issue 26 item 9). */}
          <Form.Item label={t('campaigns:levels.note')} name="note" rules={[rule]} extra={t('campaigns:levels.noteHint')}>
            <Input.TextArea rows={2} maxLength={1000} />
          </Form.Item>
          {/* Enter in a field submits the dialog (000 keyboard use). */}
          <button type="submit" hidden aria-hidden />
        </Form>
      </div>
    </Modal>
  );
}

/** Fee levels tab (001 §2–§3): the campaign's levels, add and edit in a dialog, set the default, delete. */
export function FeeLevelsTab({ campaignId, editable }: { campaignId: number; editable: boolean }) {
  const t = useTranslate();
  const { modal } = App.useApp();
  const refresh = usePaymentsRefresh();
  const levels = useList<FeeLevel>({
    resource: `payment-fee-levels/campaign/${campaignId}`,
    meta: { listKey: 'feeLevels' },
    pagination: { mode: 'off' },
  });
  const create = useModalForm<FeeLevel>({
    resource: 'payment-fee-levels',
    action: 'create',
    redirect: false,
    onMutationSuccess: refresh,
    successNotification: () => ({ type: 'success', message: t('campaigns:levels.created') }),
  });
  const edit = useModalForm<FeeLevel>({
    resource: 'payment-fee-levels',
    action: 'edit',
    redirect: false,
    onMutationSuccess: refresh,
    successNotification: () => ({ type: 'success', message: t('campaigns:levels.updated') }),
  });
  const { mutate: deleteOne } = useDelete();
  const { mutate: custom } = useCustomMutation();
  // On a phone the amount joins the name's line: beside the description it squeezed the note into three lines.
  const phone = !Grid.useBreakpoint().sm;

  const remove = (l: FeeLevel) =>
    modal.confirm({
      title: t('campaigns:levels.deleteTitle'),
      content: t('campaigns:levels.deleteMessage', { name: l.levelName }),
      okText: t('buttons.delete'),
      okButtonProps: { danger: true },
      cancelText: t('buttons.cancel'),
      onOk: () =>
        new Promise<void>((resolve) =>
          deleteOne(
            { resource: 'payment-fee-levels', id: l.id, successNotification: false },
            { onSuccess: refresh, onSettled: () => resolve() },
          ),
        ),
    });
  const makeDefault = (l: FeeLevel) =>
    custom(
      {
        url: apiUrl(`/payment-fee-levels/${l.id}/set-default`),
        method: 'post',
        values: {},
        successNotification: () => ({ type: 'success', message: t('campaigns:levels.defaultSet', { name: l.levelName }) }),
      },
      { onSuccess: refresh },
    );

  return (
    <Space direction="vertical" className="full-width" data-testid="fee-levels">
      {editable && (
        <Button type="primary" onClick={() => create.show()} data-testid="fee-level-add">
          {t('campaigns:levels.add')}
        </Button>
      )}
      <List
        bordered
        dataSource={levels.result.data}
        loading={levels.query.isLoading}
        locale={{ emptyText: t('campaigns:levels.empty') }}
        renderItem={(l) => (
          <List.Item
            data-testid="fee-level"
            actions={
              editable
                ? [
                    !l.isDefault && (
                      <Button key="default" type="link" size="small" onClick={() => makeDefault(l)} data-testid="fee-level-default">
                        {t('campaigns:levels.setDefault')}
                      </Button>
                    ),
                    <Button key="edit" type="link" size="small" onClick={() => edit.show(l.id)} data-testid="fee-level-edit">
                      {t('buttons.edit')}
                    </Button>,
                    // A level members are assigned to is refused by the server: shown disabled with why (issue 25 item 6).
                    <WithReason
                      key="delete"
                      reason={l.assignmentCount > 0 ? t('campaigns:levelDeleteBlocked', { count: l.assignmentCount }) : null}
                    >
                      <Button
                        type="link"
                        size="small"
                        danger
                        disabled={l.assignmentCount > 0}
                        onClick={() => remove(l)}
                        data-testid="fee-level-delete"
                      >
                        {t('buttons.delete')}
                      </Button>
                    </WithReason>,
                  ].filter(Boolean)
                : []
            }
          >
            <List.Item.Meta
              title={
                <Space wrap size={[8, 0]}>
                  {l.levelName}
                  {l.isDefault && (
                    <Tag color="blue" data-testid="fee-level-default-tag">
                      {t('campaigns:levels.default')}
                    </Tag>
                  )}
                  {phone && <Typography.Text strong>{formatVnd(l.amount)}</Typography.Text>}
                </Space>
              }
              description={
                (l.description || l.note) && (
                  <Space direction="vertical" size={0}>
                    {l.description}
                    {l.note && (
                      <Typography.Text type="secondary" data-testid="fee-level-note">
                        {t('campaigns:levels.note')}: {l.note}
                      </Typography.Text>
                    )}
                  </Space>
                )
              }
            />
            {!phone && <Typography.Text strong>{formatVnd(l.amount)}</Typography.Text>}
          </List.Item>
        )}
      />
      <FeeLevelModal action="create" form={create} campaignId={campaignId} />
      <FeeLevelModal action="edit" form={edit} campaignId={campaignId} />
    </Space>
  );
}
