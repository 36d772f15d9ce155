import type { SessionUser } from '@doanhoi/shared';
import { useGetIdentity } from '@refinedev/core';
import { Layout } from 'antd';
import { LanguageSwitcher } from '../language-switcher';
import { LoginModal } from '../login-modal';
import { OrganizationSwitcher } from '../organization-switcher';
import { ThemeToggle } from '../theme-toggle';
import { UserMenu } from '../user-menu';

/**
 * Organization context, language, theme, then the user menu (or sign-in when there is no session).
 * The identity decides, not useIsAuthenticated: a new "check" observer here would refetch the
 * check and make <Authenticated> unmount this very layout while it runs.
 */
export function Header() {
  const { data: user } = useGetIdentity<SessionUser>();
  return (
    <Layout.Header className="app-header">
      {user && <OrganizationSwitcher />}
      <LanguageSwitcher />
      <ThemeToggle />
      {user ? <UserMenu /> : <LoginModal />}
    </Layout.Header>
  );
}
