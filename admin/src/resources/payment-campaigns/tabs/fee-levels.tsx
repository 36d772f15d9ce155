import { createFeeLevelSchema, formatVnd, type FeeLevel } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Form, Input, InputNumber, List, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { zodRule } from '../../../components/form-rules';
import { apiRequest } from '../../../providers/http';

const rule = zodRule(createFeeLevelSchema);

interface Values {
  levelName: string;
  amount: number;
  description?: string;
}

/** Fee levels tab (001 §2): the campaign's levels with an inline form to add or edit one, and delete. */
export function FeeLevelsTab({ campaignId, editable, onChanged }: { campaignId: number; editable: boolean; onChanged: () => void }) {
  const t = useTranslate();
  const { modal, notification } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [editing, setEditing] = useState<FeeLevel | null>(null);
  const levels = useQuery({ queryKey: ['payment-fee-levels', campaignId], queryFn: () => apiRequest<{ feeLevels: FeeLevel[] }>(`/payment-fee-levels/campaign/${campaignId}`) });
  const list = levels.data?.feeLevels ?? [];
  const refresh = () => {
    void levels.refetch();
    onChanged();
  };

  async function save(v: Values) {
    try {
      if (editing) await apiRequest(`/payment-fee-levels/${editing.id}`, { method: 'PATCH', body: v });
      else await apiRequest('/payment-fee-levels', { method: 'POST', body: { ...v, campaignId } });
      notification.success({ message: t(editing ? 'campaigns:levels.updated' : 'campaigns:levels.created') });
      setEditing(null);
      form.resetFields();
      refresh();
    } catch (e) {
      notification.error({ message: (e as Error).message });
    }
  }

  function remove(l: FeeLevel) {
    modal.confirm({
      title: t('campaigns:levels.deleteTitle'),
      content: t('campaigns:levels.deleteMessage', { name: l.levelName }),
      okText: t('buttons.delete'),
      okButtonProps: { danger: true },
      cancelText: t('buttons.cancel'),
      onOk: async () => {
        try {
          await apiRequest(`/payment-fee-levels/${l.id}`, { method: 'DELETE' });
          refresh();
        } catch (e) {
          notification.error({ message: (e as Error).message });
        }
      },
    });
  }

  return (
    <Space direction="vertical" className="full-width" data-testid="fee-levels">
      <List
        bordered
        dataSource={list}
        loading={levels.isLoading}
        locale={{ emptyText: t('campaigns:levels.empty') }}
        renderItem={(l) => (
          <List.Item
            data-testid="fee-level"
            actions={
              editable
                ? [
                    <Button key="edit" type="link" size="small" onClick={() => (setEditing(l), form.setFieldsValue({ levelName: l.levelName, amount: l.amount, description: l.description ?? undefined }))}>
                      {t('buttons.edit')}
                    </Button>,
                    <Button key="delete" type="link" size="small" danger onClick={() => remove(l)}>
                      {t('buttons.delete')}
                    </Button>,
                  ]
                : []
            }
          >
            <List.Item.Meta
              title={
                <Space>
                  {l.levelName}
                  {l.isDefault && <Tag color="blue">{t('campaigns:levels.default')}</Tag>}
                </Space>
              }
              description={l.description}
            />
            <Typography.Text strong>{formatVnd(l.amount)}</Typography.Text>
          </List.Item>
        )}
      />
      {editable && (
        <Form form={form} layout="inline" onFinish={(v) => void save(v)} data-testid="fee-level-form">
          <Form.Item name="levelName" rules={[rule]}>
            <Input placeholder={t('campaigns:levels.name')} aria-label={t('campaigns:levels.name')} />
          </Form.Item>
          <Form.Item name="amount" rules={[rule]}>
            <InputNumber min={1} step={1000} placeholder={t('campaigns:levels.amount')} aria-label={t('campaigns:levels.amount')} className="amount-input" />
          </Form.Item>
          <Form.Item name="description" rules={[rule]}>
            <Input placeholder={t('campaigns:levels.description')} aria-label={t('campaigns:levels.description')} />
          </Form.Item>
          <Button type="primary" htmlType="submit" data-testid="fee-level-save">
            {t(editing ? 'buttons.save' : 'campaigns:levels.add')}
          </Button>
          {editing && <Button onClick={() => (setEditing(null), form.resetFields())}>{t('buttons.cancel')}</Button>}
        </Form>
      )}
    </Space>
  );
}
