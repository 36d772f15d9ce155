import { changePasswordSchema, type ChangePasswordInput, type SessionUser } from '@doanhoi/shared';
import { useGetIdentity, useInvalidateAuthStore, useLogout, useNotification, useTranslate, useUpdatePassword } from '@refinedev/core';
import { Alert, Button, Form, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { requestPasswordCode } from '../../providers';
import { useDialogFocus } from '../dialog-focus';
import { fieldAwareNotification } from '../form-errors';
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
  const { open: notify } = useNotification();
  const [form] = Form.useForm<Values>();
  // Refine's own handler toasts every refusal in the corner; one about a field (a wrong current
  // password, a wrong code) is said under that field instead (issue 26 item 7).
  const { mutate: updatePassword, isPending } = useUpdatePassword<ChangePasswordInput>({
    mutationOptions: {
      onSuccess: ({ success, error, successNotification }) => {
        if (success) {
          if (successNotification)
            notify?.({ type: 'success', message: successNotification.message, description: successNotification.description });
          return;
        }
        const toast = fieldAwareNotification(() => form, {
          type: 'error',
          message: error?.name ?? t('auth:changePassword.failed'),
          description: error?.message,
        })(error);
        if (toast) notify?.(toast);
      },
      onError: (error) => notify?.({ type: 'error', message: t('auth:changePassword.failed'), description: error.message }),
    },
  });
  const { mutate: logout } = useLogout();
  const invalidateAuth = useInvalidateAuthStore();
  const rule = zodRule(changePasswordSchema);
  const focus = useDialogFocus();

  const [sending, setSending] = useState(false);
  // A default password is public: its first change also needs a code only the owner has (issue 25 item 7).
  const needsCode = Boolean(user?.mustChangePassword);
  const sendCode = async () => {
    setSending(true);
    try {
      await requestPasswordCode();
      notify?.({ type: 'success', message: t('auth:changePassword.codeSent', { email: user?.email ?? '' }) });
    } catch (err) {
      notify?.({ type: 'error', message: t('auth:changePassword.codeFailed'), description: err instanceof Error ? err.message : '' });
    } finally {
      setSending(false);
    }
  };

  const submit = ({ currentPassword, newPassword, code }: Values) =>
    updatePassword(
      { currentPassword, newPassword, ...(needsCode ? { code } : {}) },
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
          <Button
            key="cancel"
            onClick={() => {
              form.resetFields();
              chosen.onClose();
            }}
          >
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
        <Form<Values>
          form={form}
          name={chosen ? 'change-password-chosen' : 'change-password'}
          layout="vertical"
          requiredMark={false}
          onFinish={submit}
          data-testid="change-password-form"
        >
          <Form.Item name="currentPassword" label={t('auth:changePassword.current')} rules={[rule]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          {needsCode && (
            <>
              <Alert type="info" showIcon message={t('auth:changePassword.codeHelp', { email: user?.email ?? '' })} className="block-gap" />
              <Form.Item label={t('auth:changePassword.code')} required>
                <Space.Compact block>
                  <Form.Item name="code" noStyle rules={[{ required: true, message: t('validation:passwordCodeRequired') }, rule]}>
                    <Input aria-label={t('auth:changePassword.code')} inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
                  </Form.Item>
                  <Button onClick={() => void sendCode()} loading={sending} data-testid="send-password-code">
                    {t('auth:changePassword.sendCode')}
                  </Button>
                </Space.Compact>
              </Form.Item>
            </>
          )}
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
