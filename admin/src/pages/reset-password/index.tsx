/**
 * /reset-password?token=… (issue 30 item 7): the e-mailed link. The token is taken out of the
 * address bar at once (history, screenshots); a wrong, used or expired link says so and offers a
 * new one. After the reset every session is gone, this browser's included: sign in again.
 */
import { resetPasswordSchema, type ResetPasswordInput } from '@doanhoi/shared';
import { useCustom, useCustomMutation, useTranslate } from '@refinedev/core';
import { Alert, Button, Flex, Form, Input, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { zodRule } from '../../components/form-rules';
import { session } from '../../providers';
import { ApiError } from '../../providers/http';
import { AuthFrame } from '../forgot-password/frame';

type Values = Pick<ResetPasswordInput, 'password'> & { confirm: string };
type State = 'checking' | 'form' | 'done' | 'dead';

export function ResetPasswordPage() {
  const t = useTranslate();
  const navigate = useNavigate();
  const [token] = useState(() => new URLSearchParams(window.location.search).get('token'));
  const [state, setState] = useState<State>(token ? 'checking' : 'dead');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [form] = Form.useForm<Values>();
  const rule = zodRule(resetPasswordSchema);
  const { mutateAsync } = useCustomMutation();
  // A dead link says so before a password is typed; if the check itself fails, the form still decides.
  const { query: check } = useCustom({
    dataProviderName: 'public',
    url: '/api/auth/reset-password/check',
    method: 'post',
    config: { payload: { token } },
    errorNotification: false,
    queryOptions: { enabled: Boolean(token), retry: false, gcTime: 0 },
  });

  useEffect(() => {
    if (window.location.search) window.history.replaceState(window.history.state, '', window.location.pathname);
  }, []);
  useEffect(() => {
    if (check.isSuccess) setState((s) => (s === 'checking' ? 'form' : s));
    else if (check.isError) {
      const dead = check.error instanceof ApiError && check.error.status === 400;
      setState((s) => (s === 'checking' ? (dead ? 'dead' : 'form') : s));
    }
  }, [check.isSuccess, check.isError, check.error]);

  const submit = async ({ password }: Values) => {
    setSaving(true);
    setError(null);
    try {
      await mutateAsync({
        dataProviderName: 'public',
        url: '/api/auth/reset-password',
        method: 'post',
        values: { token, password },
        successNotification: false,
        errorNotification: false,
      });
      // The server ended every session; this browser's tokens are dead too.
      session.clear();
      setState('done');
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && err.errors?.password)
        form.setFields([{ name: 'password', errors: err.errors.password }]);
      else if (err instanceof ApiError && err.status === 400) setState('dead');
      else setError(err instanceof Error ? err.message : String(err));
    } finally {
      setSaving(false);
    }
  };

  if (state === 'done') {
    return (
      <AuthFrame title={t('auth:reset.title')}>
        <div data-testid="reset-done">
          <Result
            status="success"
            title={t('auth:reset.doneTitle')}
            subTitle={t('auth:reset.done')}
            // A full load: the app's cached sign-in state must not outlive the tokens.
            extra={
              <Button type="primary" size="large" href="/login">
                {t('auth:reset.signIn')}
              </Button>
            }
          />
        </div>
      </AuthFrame>
    );
  }
  if (state === 'dead') {
    return (
      <AuthFrame title={t('auth:reset.title')}>
        <div data-testid="reset-dead">
          <Result
            status="warning"
            title={t('auth:reset.deadTitle')}
            subTitle={t('auth:reset.dead')}
            extra={
              <Button type="primary" onClick={() => navigate('/forgot-password')}>
                {t('auth:reset.newLink')}
              </Button>
            }
          />
        </div>
      </AuthFrame>
    );
  }
  if (state === 'checking') {
    return (
      <AuthFrame title={t('auth:reset.title')}>
        <Flex justify="center">
          <Spin />
        </Flex>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title={t('auth:reset.title')} subtitle={t('auth:reset.subtitle')}>
      {error && <Alert type="error" showIcon className="block-gap" message={t('auth:reset.failed')} description={error} />}
      <Form<Values>
        form={form}
        name="reset-password"
        layout="vertical"
        requiredMark={false}
        data-testid="reset-form"
        onFinish={(v) => void submit(v)}
      >
        <Form.Item name="password" label={t('auth:reset.new')} rules={[rule]} extra={t('auth:reset.rule')}>
          <Input.Password autoComplete="new-password" autoFocus />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('auth:reset.confirm')}
          dependencies={['password']}
          rules={[
            ({ getFieldValue }) => ({
              validator: async (_, value) => {
                if (value !== getFieldValue('password')) throw new Error(t('auth:reset.mismatch'));
              },
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={saving}>
          {t('auth:reset.submit')}
        </Button>
      </Form>
    </AuthFrame>
  );
}
