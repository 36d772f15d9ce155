import { createPayosConfigSchema, type PayosConfig } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Space, Switch, Tag } from 'antd';
import { useEffect } from 'react';
import { zodRule } from '../../../components/form-rules';
import { apiRequest } from '../../../providers/http';

const rule = zodRule(createPayosConfigSchema);
type Keys = Pick<PayosConfig, 'clientId' | 'apiKey' | 'checksumKey'>;

/**
 * payOS configuration tab (001 §2): the three credentials (stored encrypted; shown masked, and a
 * masked value sent back leaves the key unchanged), copy/paste of the set, active switch, delete.
 */
export function PayosConfigTab({ campaignId, editable, onChanged }: { campaignId: number; editable: boolean; onChanged: () => void }) {
  const t = useTranslate();
  const { modal, notification, message } = App.useApp();
  const [form] = Form.useForm<Keys>();
  const config = useQuery({ queryKey: ['payos-config', campaignId], queryFn: () => apiRequest<{ data: PayosConfig | null }>(`/payment-campaigns/${campaignId}/payos-config`) });
  const current = config.data?.data ?? null;
  useEffect(() => {
    form.setFieldsValue(current ? { clientId: current.clientId, apiKey: current.apiKey, checksumKey: current.checksumKey } : { clientId: '', apiKey: '', checksumKey: '' });
  }, [current, form]);

  const run = async (task: () => Promise<unknown>, done: string) => {
    try {
      await task();
      notification.success({ message: t(done) });
      await config.refetch();
      onChanged();
    } catch (e) {
      notification.error({ message: (e as Error).message });
    }
  };
  const save = (v: Keys) =>
    run(() => apiRequest(`/payment-campaigns/${campaignId}/payos-config`, { method: current ? 'PUT' : 'POST', body: current ? v : { ...v, isActive: true } }), 'campaigns:payos.saved');

  async function paste() {
    try {
      const v = JSON.parse(await navigator.clipboard.readText()) as Partial<Keys>;
      form.setFieldsValue({ clientId: v.clientId ?? '', apiKey: v.apiKey ?? '', checksumKey: v.checksumKey ?? '' });
    } catch {
      void message.error(t('campaigns:payos.pasteFailed'));
    }
  }

  return (
    <Space direction="vertical" className="full-width" data-testid="payos-config">
      {!current && config.isSuccess && <Alert type="info" showIcon message={t('campaigns:payos.none')} />}
      {current && (
        <Space>
          <Tag color={current.isActive ? 'green' : 'default'}>{t(current.isActive ? 'campaigns:payos.active' : 'campaigns:payos.inactive')}</Tag>
          {editable && (
            <Switch
              checked={current.isActive}
              onChange={() => void run(() => apiRequest(`/payment-campaigns/${campaignId}/payos-config/toggle-active`, { method: 'POST' }), 'campaigns:payos.toggled')}
              aria-label={t('campaigns:payos.active')}
            />
          )}
        </Space>
      )}
      <Form form={form} layout="vertical" onFinish={(v) => void save(v)} disabled={!editable} className="payos-form">
        <Form.Item label="Client ID" name="clientId" rules={[rule]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item label="API Key" name="apiKey" rules={[rule]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item label="Checksum Key" name="checksumKey" rules={[rule]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Space wrap>
          <Button type="primary" htmlType="submit" data-testid="payos-save">
            {t('buttons.save')}
          </Button>
          <Button onClick={() => void navigator.clipboard.writeText(JSON.stringify(form.getFieldsValue())).then(() => message.success(t('campaigns:payos.copied')))}>
            {t('campaigns:payos.copy')}
          </Button>
          <Button onClick={() => void paste()}>{t('campaigns:payos.paste')}</Button>
          {current && (
            <Button
              danger
              onClick={() =>
                modal.confirm({
                  title: t('campaigns:payos.deleteTitle'),
                  content: t('campaigns:payos.deleteMessage'),
                  okText: t('buttons.delete'),
                  okButtonProps: { danger: true },
                  cancelText: t('buttons.cancel'),
                  onOk: () => run(() => apiRequest(`/payment-campaigns/${campaignId}/payos-config`, { method: 'DELETE' }), 'campaigns:payos.deleted'),
                })
              }
            >
              {t('buttons.delete')}
            </Button>
          )}
        </Space>
      </Form>
    </Space>
  );
}
