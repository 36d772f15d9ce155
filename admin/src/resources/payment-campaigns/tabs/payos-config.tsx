import { createPayosConfigSchema, type PayosConfig } from '@doanhoi/shared';
import { useCustom, useCustomMutation, useDelete, useTranslate } from '@refinedev/core';
import { Alert, App, Button, Form, Input, Space, Switch, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { zodRule } from '../../../components/form-rules';
import { apiUrl, usePaymentsRefresh } from '../use-refresh';

const rule = zodRule(createPayosConfigSchema);
type Keys = Pick<PayosConfig, 'clientId' | 'apiKey' | 'checksumKey'>;
const KEYS = ['clientId', 'apiKey', 'checksumKey'] as const;
const EMPTY: Keys = { clientId: '', apiKey: '', checksumKey: '' };

/** Clipboard text → the three keys, or null unless it is JSON carrying all three (001 §5). */
export function readClipboardConfig(text: string): Keys | null {
  try {
    const v = JSON.parse(text) as Partial<Record<keyof Keys, unknown>>;
    const keys = KEYS.map((k) => (typeof v?.[k] === 'string' ? (v[k] as string).trim() : ''));
    return keys.every(Boolean) ? { clientId: keys[0], apiKey: keys[1], checksumKey: keys[2] } : null;
  } catch {
    return null;
  }
}

interface Props {
  campaignId: number;
  /** The caller may update the campaign (in its organization) and it is not finished. */
  editable: boolean;
  /** payment-campaigns.update in the campaign's organization: reveal the stored keys (audited by the API). */
  canReveal: boolean;
}

/**
 * payOS configuration tab (001 §2, §5): the three credentials (stored encrypted, shown masked; a
 * masked value sent back leaves the key unchanged), reveal, copy/paste, test the connection, the
 * active switch and delete. Save stays disabled until all three keys are filled.
 */
export function PayosConfigTab({ campaignId, editable, canReveal }: Props) {
  const t = useTranslate();
  const { modal, message } = App.useApp();
  const refresh = usePaymentsRefresh();
  const [form] = Form.useForm<Keys>();
  const [revealed, setRevealed] = useState(false);
  const [test, setTest] = useState<{ ok: boolean; message: string } | null>(null);
  const url = apiUrl(`/payment-campaigns/${campaignId}/payos-config`);
  const { query, result } = useCustom<{ data: PayosConfig | null }>({ url, method: 'get', config: { query: revealed ? { reveal: true } : undefined } });
  const current = query.isSuccess ? ((result.data as { data: PayosConfig | null }).data ?? null) : null;
  const { mutate, mutation } = useCustomMutation();
  const { mutate: deleteOne } = useDelete();
  const values = Form.useWatch([], form) as Partial<Keys> | undefined;
  const complete = KEYS.every((k) => (values?.[k] ?? '').trim() !== '');

  useEffect(() => {
    form.setFieldsValue(current ? { clientId: current.clientId, apiKey: current.apiKey, checksumKey: current.checksumKey } : EMPTY);
  }, [current, form]);

  const save = (v: Keys) =>
    mutate(
      {
        url,
        method: current ? 'put' : 'post',
        values: current ? v : { ...v, isActive: true },
        successNotification: () => ({ type: 'success', message: t('campaigns:payos.saved') }),
      },
      { onSuccess: () => (setRevealed(false), refresh()) },
    );
  const toggle = () =>
    mutate({ url: `${url}/toggle-active`, method: 'post', values: {}, successNotification: () => ({ type: 'success', message: t('campaigns:payos.toggled') }) }, { onSuccess: refresh });
  const testConnection = () =>
    mutate(
      { url: `${url}/test-connection`, method: 'post', values: form.getFieldsValue(), successNotification: false, errorNotification: false },
      {
        onSuccess: (res) => {
          const body = res.data as { success?: boolean; message?: string; data?: { connected?: boolean } };
          const ok = Boolean(body.data?.connected ?? body.success);
          setTest({ ok, message: body.message ?? t(ok ? 'campaigns:payos.testOk' : 'campaigns:payos.testFailed') });
        },
        onError: (e) => setTest({ ok: false, message: e.message }),
      },
    );
  const remove = () =>
    modal.confirm({
      title: t('campaigns:payos.deleteTitle'),
      content: t('campaigns:payos.deleteMessage'),
      okText: t('buttons.delete'),
      okButtonProps: { danger: true },
      cancelText: t('buttons.cancel'),
      // DELETE /payment-campaigns/{id}/payos-config: the config is the campaign's single "payos-config" record.
      onOk: () =>
        new Promise<void>((resolve) =>
          deleteOne(
            { resource: `payment-campaigns/${campaignId}`, id: 'payos-config', successNotification: () => ({ type: 'success', message: t('campaigns:payos.deleted') }) },
            { onSuccess: () => (setRevealed(false), refresh()), onSettled: () => resolve() },
          ),
        ),
    });
  async function paste() {
    try {
      const keys = readClipboardConfig(await navigator.clipboard.readText());
      if (keys) form.setFieldsValue(keys);
      else void message.error(t('campaigns:payos.invalidClipboard'));
    } catch {
      void message.error(t('campaigns:payos.pasteFailed'));
    }
  }

  return (
    <Space direction="vertical" className="full-width" data-testid="payos-config">
      {!current && query.isSuccess && <Alert type="info" showIcon message={t('campaigns:payos.none')} />}
      {current && (
        <Space>
          <Tag color={current.isActive ? 'green' : 'default'}>{t(current.isActive ? 'campaigns:payos.active' : 'campaigns:payos.inactive')}</Tag>
          {editable && <Switch checked={current.isActive} onChange={toggle} aria-label={t('campaigns:payos.active')} />}
        </Space>
      )}
      <Form form={form} layout="vertical" onFinish={save} disabled={!editable} className="payos-form">
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
          <Button type="primary" htmlType="submit" disabled={!editable || !complete} loading={mutation.isPending} data-testid="payos-save">
            {t('buttons.save')}
          </Button>
          {current && canReveal && current.masked && (
            <Button disabled={false} onClick={() => setRevealed(true)} data-testid="payos-reveal">
              {t('campaigns:payos.reveal')}
            </Button>
          )}
          {current && editable && (
            <Button onClick={testConnection} data-testid="payos-test">
              {t('campaigns:payos.test')}
            </Button>
          )}
          <Button disabled={false} onClick={() => void navigator.clipboard.writeText(JSON.stringify(form.getFieldsValue())).then(() => message.success(t('campaigns:payos.copied')))}>
            {t('campaigns:payos.copy')}
          </Button>
          <Button onClick={() => void paste()}>{t('campaigns:payos.paste')}</Button>
          {current && (
            <Button danger onClick={remove} data-testid="payos-delete">
              {t('buttons.delete')}
            </Button>
          )}
        </Space>
      </Form>
      {test && <Alert type={test.ok ? 'success' : 'error'} showIcon message={test.message} data-testid="payos-test-result" data-ok={test.ok} />}
    </Space>
  );
}
