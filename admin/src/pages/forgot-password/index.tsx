/**
 * /forgot-password (issue 30 item 7): asks for a reset link. Whatever the e-mail, the page says the
 * same thing afterwards (the API answers the same 202), so it tells nobody which accounts exist.
 */
import { forgotPasswordSchema, type ForgotPasswordInput } from '@doanhoi/shared';
import { useCustomMutation, useTranslate } from '@refinedev/core';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { zodRule } from '../../components/form-rules';
import { AuthFrame } from './frame';

export function ForgotPasswordPage() {
  const t = useTranslate();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [form] = Form.useForm<ForgotPasswordInput>();
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const rule = zodRule(forgotPasswordSchema);
  const { mutateAsync } = useCustomMutation();

  const submit = async (values: ForgotPasswordInput) => {
    setSending(true);
    setError(null);
    try {
      await mutateAsync({
        dataProviderName: 'public',
        url: '/api/auth/forgot-password',
        method: 'post',
        values,
        successNotification: false,
        errorNotification: false,
      });
      setSent(true);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setSending(false);
    }
  };

  return (
    <AuthFrame title={t('auth:forgot.title')} subtitle={sent ? undefined : t('auth:forgot.subtitle')}>
      {sent ? (
        <Alert
          type="success"
          showIcon
          className="block-gap"
          data-testid="forgot-sent"
          message={t('auth:forgot.sentTitle')}
          description={t('auth:forgot.sent')}
        />
      ) : (
        <>
          {error && (
            <Alert
              type="error"
              showIcon
              className="block-gap"
              data-testid="forgot-error"
              message={t('auth:forgot.failed')}
              description={error}
            />
          )}
          <Form<ForgotPasswordInput>
            form={form}
            name="forgot-password"
            layout="vertical"
            requiredMark={false}
            data-testid="forgot-form"
            initialValues={{ email: params.get('email') ?? '' }}
            validateTrigger={[]}
            onFinish={(values) => void submit(values)}
          >
            <Form.Item name="email" label={t('auth:login.email')} rules={[rule]}>
              <Input inputMode="email" autoComplete="username" placeholder={t('auth:login.emailPlaceholder')} autoFocus />
            </Form.Item>
            <Button type="primary" htmlType="submit" block size="large" loading={sending}>
              {t('auth:forgot.submit')}
            </Button>
          </Form>
        </>
      )}
      <Button type="link" block onClick={() => navigate('/login')}>
        {t('auth:forgot.back')}
      </Button>
    </AuthFrame>
  );
}
