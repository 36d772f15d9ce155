import { changePasswordSchema, type ChangePasswordInput, type SessionUser } from '@doanhoi/shared';
import { useGetIdentity, useInvalidateAuthStore, useLogout, useTranslate, useUpdatePassword } from '@refinedev/core';
import { Alert, Button, Form, Input, Modal } from 'antd';
import { useDialogFocus } from '../dialog-focus';
import { zodRule } from '../form-rules';

type Values = ChangePasswordInput & { confirmPassword: string };

/**
 * Accounts created with a temporary password (mustChangePassword) must pick a new one before
 * using the app, so that modal cannot be dismissed; signing out is the only other way out.
 * From the user menu (`chosen`) the same form is an ordinary dialog.
 */
export function ChangePasswordModal({ chosen }: { chosen?: { open: boolean; onClose: () => void } }) {
  const t = useTranslate();
  const { data: user } = useGetIdentity<SessionUser>();
  const { mutate: updatePassword, isPending } = useUpdatePassword<ChangePasswordInput>();
  const { mutate: logout } = useLogout();
  const invalidateAuth = useInvalidateAuthStore();
  const [form] = Form.useForm<Values>();
  const rule = zodRule(changePasswordSchema);
  const focus = useDialogFocus();

  const submit = ({ currentPassword, newPassword }: Values) =>
    updatePassword(
      { currentPassword, newPassword },
      {
        onSuccess: (res) => {
          if (!res.success) return;
          void invalidateAuth();
          form.resetFields();
          chosen?.onClose();
        },
      },
    );
  const forced = !chosen && Boolean(user?.mustChangePassword);

  return (
    <Modal
      open={chosen ? chosen.open : forced}
      title={t('auth:changePassword.title')}
      closable={Boolean(chosen)}
      maskClosable={Boolean(chosen)}
      keyboard={Boolean(chosen)}
      // From the menu it mounts on each opening, so the first field takes the focus.
      destroyOnHidden={Boolean(chosen)}
      afterOpenChange={focus.afterOpenChange}
      onCancel={() => {
        form.resetFields();
        chosen?.onClose();
      }}
      footer={[
        chosen ? (
          <Button key="cancel" onClick={() => { form.resetFields(); chosen.onClose(); }}>
            {t('buttons.cancel')}
          </Button>
        ) : (
          <Button key="logout" onClick={() => logout()}>
            {t('buttons.logout')}
          </Button>
        ),
        <Button key="submit" type="primary" loading={isPending} onClick={() => form.submit()}>
          {t('auth:changePassword.submit')}
        </Button>,
      ]}
    >
      {!chosen && <Alert type="warning" showIcon message={t('auth:changePassword.required')} className="block-gap" />}
      <div ref={focus.ref}>
      <Form<Values> form={form} name={chosen ? 'change-password-chosen' : 'change-password'} layout="vertical" requiredMark={false} onFinish={submit} data-testid="change-password-form">
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
          <Input.Password autoComplete="new-password" onPressEnter={() => form.submit()} />
        </Form.Item>
      </Form>
      </div>
    </Modal>
  );
}
