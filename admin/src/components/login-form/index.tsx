import { GoogleOutlined } from '@ant-design/icons';
import type { AuthProviders } from '@doanhoi/shared';
import { useCustom, useLogin, useTranslate } from '@refinedev/core';
import { Button, Divider, Form, Input } from 'antd';
import type { LoginParams } from '../../providers';
import { loginRule as rule } from './rule';

/** The backend's Google flow is a full-page redirect (000 §4 "Google sign-in"). */
export function startGoogleSignIn() {
  window.location.href = '/auth/google';
}

interface LoginFormProps {
  /** Distinct per instance so the label/input ids stay unique (page vs header modal). */
  name?: string;
  onSuccess?: () => void;
}

/** Email + password (000 §5), and an "or" divider with the Google button when the server offers Google; used by the page and the modal. */
export function LoginForm({ name = 'login', onSuccess }: LoginFormProps) {
  const t = useTranslate();
  const [form] = Form.useForm<LoginParams>();
  const { mutate: login, isPending } = useLogin<LoginParams>();
  // Hidden until the server says yes: a button that can only end in "not configured" is worse than none.
  const { result: providers } = useCustom<AuthProviders>({
    dataProviderName: 'public',
    url: '/api/auth/providers',
    method: 'get',
    errorNotification: false,
    queryOptions: { staleTime: Infinity },
  });

  return (
    <Form<LoginParams>
      form={form}
      name={name}
      layout="vertical"
      requiredMark={false}
      data-testid="login-form"
      // Validate on submit only; editing a field clears its error (000 §5).
      validateTrigger={[]}
      onValuesChange={(changed: Partial<LoginParams>) =>
        form.setFields((Object.keys(changed) as (keyof LoginParams)[]).map((field) => ({ name: field, errors: [] })))
      }
      onFinish={(values) => login(values, { onSuccess: (res) => res.success && onSuccess?.() })}
    >
      <Form.Item name="email" label={t('auth:login.email')} rules={[rule]}>
        <Input inputMode="email" autoComplete="username" placeholder={t('auth:login.emailPlaceholder')} />
      </Form.Item>
      <Form.Item name="password" label={t('auth:login.password')} rules={[rule]}>
        <Input.Password autoComplete="current-password" placeholder={t('auth:login.passwordPlaceholder')} />
      </Form.Item>
      <Button type="primary" htmlType="submit" block size="large" loading={isPending}>
        {t('auth:login.submit')}
      </Button>
      {providers.data?.google && (
        <>
          <Divider plain>{t('auth:login.or')}</Divider>
          <Button block size="large" icon={<GoogleOutlined />} onClick={startGoogleSignIn}>
            {t('auth:login.google')}
          </Button>
        </>
      )}
    </Form>
  );
}
