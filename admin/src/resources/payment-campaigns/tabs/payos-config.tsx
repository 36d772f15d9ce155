import { createPayosConfigSchema, updatePayosConfigSchema, type PayosConfig } from '@doanhoi/shared';
import { useCustom, useCustomMutation, useDelete, useTranslate } from '@refinedev/core';
import { Alert, App, Button, Descriptions, Form, Input, InputNumber, Space, Switch, Tag, Typography } from 'antd';
import { formatDateTime } from '@doanhoi/shared';
import { useEffect, useState } from 'react';
import { fieldAwareNotification } from '../../../components/form-errors';
import { zodRule } from '../../../components/form-rules';
import { apiUrl, usePaymentsRefresh } from '../use-refresh';

const createRule = zodRule(createPayosConfigSchema);
/** A stored config comes back masked ('••••abcd'): the update rule takes that as "keep the key", as the API does. */
const updateRule = zodRule(updatePayosConfigSchema);
type Keys = Pick<PayosConfig, 'clientId' | 'apiKey' | 'checksumKey'>;
type Values = Keys & { descriptionMaxLength?: number };
interface Webhook {
  webhookUrl: string;
  confirmed: boolean;
  message: string;
}
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
  const [form] = Form.useForm<Values>();
  // payOS's answer to the last webhook registration (on save or "confirm webhook").
  const [webhook, setWebhook] = useState<Webhook | null>(null);
  const [revealed, setRevealed] = useState(false);
  const [test, setTest] = useState<{ ok: boolean; message: string } | null>(null);
  const url = apiUrl(`/payment-campaigns/${campaignId}/payos-config`);
  const { query, result } = useCustom<{ data: PayosConfig | null }>({
    url,
    method: 'get',
    config: { query: revealed ? { reveal: true } : undefined },
  });
  const current = query.isSuccess ? ((result.data as { data: PayosConfig | null }).data ?? null) : null;
  const { mutate, mutation } = useCustomMutation();
  const { mutate: deleteOne } = useDelete();
  const values = Form.useWatch([], form) as Partial<Keys> | undefined;
  const complete = KEYS.every((k) => (values?.[k] ?? '').trim() !== '');
  const rule = current ? updateRule : createRule;

  useEffect(() => {
    form.setFieldsValue(
      current
        ? {
            clientId: current.clientId,
            apiKey: current.apiKey,
            checksumKey: current.checksumKey,
            descriptionMaxLength: current.descriptionMaxLength,
          }
        : { ...EMPTY, descriptionMaxLength: undefined },
    );
  }, [current, form]);

  // Where payOS will send this channel's notices once saved (the server's answer names it after the first save).
  const hookUrl = current?.webhookUrl ?? `${window.location.origin}/api/payment/webhook/payos`;
  /**
   * Saving registers the channel's webhook at payOS to this server, taking it from any other system
   * that shares the Client ID: said beside the button and, for a real channel, asked before (issue 26
   * item 9). The embedded sandbox's channel is this server's own.
   */
  const save = (v: Values) =>
    current?.sandbox
      ? store(v)
      : modal.confirm({
          title: t('campaigns:payos.webhookConfirmTitle'),
          content: t('campaigns:payos.webhookWarning', { url: hookUrl }),
          okText: t('campaigns:payos.webhookConfirmOk'),
          cancelText: t('buttons.cancel'),
          onOk: () => store(v),
        });
  const store = (v: Values) =>
    mutate(
      {
        url,
        method: current ? 'put' : 'post',
        values: current ? v : { ...v, isActive: true },
        successNotification: () => ({ type: 'success', message: t('campaigns:payos.saved') }),
        errorNotification: fieldAwareNotification(() => form),
      },
      {
        onSuccess: (res) => {
          setRevealed(false);
          setWebhook((res.data as { webhook?: Webhook }).webhook ?? null);
          refresh();
        },
      },
    );
  const confirmWebhook = () =>
    mutate(
      { url: `${url}/confirm-webhook`, method: 'post', values: {}, successNotification: false, errorNotification: false },
      {
        onSuccess: (res) => {
          setWebhook((res.data as { data?: Webhook }).data ?? null);
          refresh();
        },
        onError: (e) => setWebhook({ webhookUrl: current?.webhookUrl ?? '', confirmed: false, message: e.message }),
      },
    );
  const toggle = () =>
    mutate(
      {
        url: `${url}/toggle-active`,
        method: 'post',
        values: {},
        successNotification: () => ({ type: 'success', message: t('campaigns:payos.toggled') }),
      },
      { onSuccess: refresh },
    );
  const testConnection = () =>
    mutate(
      {
        url: `${url}/test-connection`,
        method: 'post',
        values: form.getFieldsValue(),
        successNotification: false,
        errorNotification: false,
      },
      {
        onSuccess: (res) => {
          const body = res.data as { success?: boolean; message?: string; data?: { connected?: boolean; reason?: string } };
          const ok = Boolean(body.data?.connected ?? body.success);
          const reason = body.data?.reason ? t(`campaigns:payos.testReason.${body.data.reason}`) : null;
          setTest({
            ok,
            message: [reason, body.message].filter(Boolean).join(' — ') || t(ok ? 'campaigns:payos.testOk' : 'campaigns:payos.testFailed'),
          });
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
            {
              resource: `payment-campaigns/${campaignId}`,
              id: 'payos-config',
              successNotification: () => ({ type: 'success', message: t('campaigns:payos.deleted') }),
            },
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
      {current?.sandbox && <Alert type="warning" showIcon message={t('campaigns:payos.sandbox')} data-testid="payos-sandbox" />}
      {current && (
        <Descriptions column={1} size="small" bordered className="phone-stack" data-testid="payos-webhook">
          <Descriptions.Item label={t('campaigns:payos.webhookUrl')}>
            <Typography.Text copyable code data-testid="payos-webhook-url">
              {current.webhookUrl}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('campaigns:payos.webhookStatus')}>
            <Space direction="vertical" size={0}>
              {current.webhookConfirmedAt && current.webhookConfirmedUrl === current.webhookUrl ? (
                <Tag color="green">{t('campaigns:payos.webhookConfirmed', { date: formatDateTime(current.webhookConfirmedAt) })}</Tag>
              ) : (
                <Tag color="orange">{t('campaigns:payos.webhookNotConfirmed')}</Tag>
              )}
              {current.webhookMessage && <Typography.Text type="secondary">{current.webhookMessage}</Typography.Text>}
            </Space>
          </Descriptions.Item>
        </Descriptions>
      )}
      {webhook && (
        <Alert
          type={webhook.confirmed ? 'success' : 'error'}
          showIcon
          closable
          onClose={() => setWebhook(null)}
          data-testid="payos-webhook-result"
          data-confirmed={webhook.confirmed}
          message={t(webhook.confirmed ? 'campaigns:payos.webhookOk' : 'campaigns:payos.webhookFailed', { url: webhook.webhookUrl })}
          description={webhook.message}
        />
      )}
      {current && (
        <Space>
          <Tag color={current.isActive ? 'green' : 'default'}>
            {t(current.isActive ? 'campaigns:payos.active' : 'campaigns:payos.inactive')}
          </Tag>
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
        {/* No min/max: antd would clamp 30 to 25 silently; the shared rule refuses it on the field (issue 25 item 12). */}
        <Form.Item
          label={t('campaigns:payos.descriptionMaxLength')}
          name="descriptionMaxLength"
          extra={t('campaigns:payos.descriptionMaxLengthHint')}
          rules={[rule]}
        >
          <InputNumber placeholder="9" data-testid="payos-description-length" />
        </Form.Item>
        {editable && (
          <Alert type="info" showIcon className="payos-webhook-warning" message={t('campaigns:payos.webhookWarning', { url: hookUrl })} />
        )}
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
          {current && editable && (
            <Button onClick={confirmWebhook} data-testid="payos-confirm-webhook">
              {t('campaigns:payos.confirmWebhook')}
            </Button>
          )}
          <Button
            disabled={false}
            onClick={() =>
              void navigator.clipboard
                .writeText(
                  JSON.stringify((({ clientId, apiKey, checksumKey }) => ({ clientId, apiKey, checksumKey }))(form.getFieldsValue())),
                )
                .then(() => message.success(t('campaigns:payos.copied')))
            }
          >
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
      {test && (
        <Alert type={test.ok ? 'success' : 'error'} showIcon message={test.message} data-testid="payos-test-result" data-ok={test.ok} />
      )}
    </Space>
  );
}
