import { changePasswordSchema, type ChangePasswordInput, type SessionUser } from '@doanhoi/shared';
import { useGetIdentity, useInvalidateAuthStore, useLogout, useTranslate, useUpdatePassword } from '@refinedev/core';
import { Alert, Button, Form, Input, Modal } from 'antd';
import { zodRule } from '../form-rules';

type Values = ChangePasswordInput & { confirmPassword: string };

/**
 * Accounts created with a temporary password (mustChangePassword) must pick a new one before
 * using the app, so this modal cannot be dismissed; signing out is the only other way out.
 */
export function ChangePasswordModal() {
  const t = useTranslate();
  const { data: user } = useGetIdentity<SessionUser>();
  const { mutate: updatePassword, isPending } = useUpdatePassword<ChangePasswordInput>();
  const { mutate: logout } = useLogout();
  const invalidateAuth = useInvalidateAuthStore();
  const [form] = Form.useForm<Values>();
  const rule = zodRule(changePasswordSchema);

  const submit = ({ currentPassword, newPassword }: Values) =>
    updatePassword(
      { currentPassword, newPassword },
      { onSuccess: (res) => res.success && void invalidateAuth() },
    );

  return (
    <Modal
      open={Boolean(user?.mustChangePassword)}
      title={t('auth:changePassword.title')}
      closable={false}
      maskClosable={false}
      keyboard={false}
      footer={[
        <Button key="logout" onClick={() => logout()}>
          {t('buttons.logout')}
        </Button>,
        <Button key="submit" type="primary" loading={isPending} onClick={() => form.submit()}>
          {t('auth:changePassword.submit')}
        </Button>,
      ]}
    >
      <Alert type="warning" showIcon message={t('auth:changePassword.required')} className="block-gap" />
      <Form<Values> form={form} name="change-password" layout="vertical" requiredMark={false} onFinish={submit}>
        <Form.Item name="currentPassword" label={t('auth:changePassword.current')} rules={[rule]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="newPassword" label={t('auth:changePassword.new')} rules={[rule]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmPassword"
          label={t('auth:changePassword.confirm')}
          dependencies={['newPassword']}
          rules={[
            ({ getFieldValue }) => ({
              validator: async (_, value) => {
                if (value !== getFieldValue('newPassword')) throw new Error(t('auth:changePassword.mismatch'));
              },
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
