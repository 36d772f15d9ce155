import { LoginOutlined } from '@ant-design/icons';
import { useTranslate } from '@refinedev/core';
import { Button, Modal } from 'antd';
import { useState } from 'react';
import { LoginForm } from '../login-form';

/** The header's sign-in button (000 §2 "Layout"): closes on the backdrop or the close button. */
export function LoginModal() {
  const t = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="primary" icon={<LoginOutlined />} onClick={() => setOpen(true)}>
        {t('auth:login.submit')}
      </Button>
      <Modal open={open} title={t('auth:login.title')} footer={null} maskClosable destroyOnHidden onCancel={() => setOpen(false)}>
        <LoginForm name="login-modal" onSuccess={() => setOpen(false)} />
      </Modal>
    </>
  );
}
