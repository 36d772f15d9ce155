import type { SessionUser } from '@doanhoi/shared';
import { ThemedLayout } from '@refinedev/antd';
import { useGetIdentity } from '@refinedev/core';
import { Spin } from 'antd';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { CurrentOrganizationProvider } from '../../context/current-organization';
import { session } from '../../providers/session';
import { ChangePasswordModal } from '../change-password';
import { ResourceGuard } from '../permission-guard';
import { Header } from './header';
import { Sider } from './sider';

/**
 * The signed-in shell: every page renders inside the sider/header layout and its resource guard.
 * A session that must change its password gets only the change form: the API refuses everything
 * else (403) until it is changed.
 */
export function AppLayout() {
  const { data } = useGetIdentity<SessionUser>();
  // Refine's translate does not re-render on a language change and the layout memoizes its header
  // and sider: the shell is mounted again in the new language (data stays cached), so no text is left behind.
  const { i18n } = useTranslation();
  // The stored user answers before the identity query has run, so no screen starts loading first.
  if ((data ?? session.user())?.mustChangePassword) return <ChangePasswordModal />;
  return (
    <CurrentOrganizationProvider>
      <ThemedLayout key={i18n.resolvedLanguage} Header={Header} Sider={Sider}>
        <ResourceGuard>
          {/* Screens load on first visit (screens.ts). */}
          <Suspense fallback={<Spin className="page-spin" />}>
            <Outlet />
          </Suspense>
        </ResourceGuard>
        <ChangePasswordModal />
      </ThemedLayout>
    </CurrentOrganizationProvider>
  );
}
