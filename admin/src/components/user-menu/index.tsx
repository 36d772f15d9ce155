import { KeyOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import type { SessionUser } from '@doanhoi/shared';
import { useGetIdentity, useLogout, useTranslate } from '@refinedev/core';
import { Avatar, Button, Dropdown, Typography, type MenuProps } from 'antd';
import { useState } from 'react';
import { ChangePasswordModal } from '../change-password';

/** 000 §3: the header shows the given name, then the family name. */
export function headerName(user: Pick<SessionUser, 'givenName' | 'familyName'>): string {
  return [user.givenName, user.familyName].filter(Boolean).join(' ').trim();
}

export function UserMenu() {
  const t = useTranslate();
  const { data: user } = useGetIdentity<SessionUser>();
  const { mutate: logout } = useLogout();
  const [changing, setChanging] = useState(false);
  if (!user) return null;
  const name = headerName(user);

  const items: MenuProps['items'] = [
    {
      key: 'profile',
      disabled: true,
      className: 'user-menu-profile',
      label: (
        <div>
          <Typography.Text strong>{name}</Typography.Text>
          <br />
          <Typography.Text type="secondary">{user.email}</Typography.Text>
        </div>
      ),
    },
    { type: 'divider' },
    {
      key: 'password',
      icon: <KeyOutlined />,
      label: <span data-testid="change-password">{t('auth:changePassword.menu')}</span>,
      onClick: () => setChanging(true),
    },
    {
      key: 'logout',
      danger: true,
      icon: <LogoutOutlined />,
      label: <span data-testid="logout">{t('buttons.logout')}</span>,
      onClick: () => logout(),
    },
  ];

  return (
    <>
      <ChangePasswordModal chosen={{ open: changing, onClose: () => setChanging(false) }} />
      <Dropdown trigger={['click']} menu={{ items }} placement="bottomRight">
        <Button type="text" data-testid="user-menu" aria-label={t('header.userMenu')} className="header-button user-menu-button">
          <Avatar size="small" icon={<UserOutlined />} />
          <span className="user-menu-text">
            <span className="user-menu-name">{name}</span>
            <span className="user-menu-email">{user.email}</span>
          </span>
        </Button>
      </Dropdown>
    </>
  );
}
