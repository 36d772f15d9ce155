import type { SessionUser } from '@doanhoi/shared';
import { ThemedLayout } from '@refinedev/antd';
import { useGetIdentity } from '@refinedev/core';
import { Spin } from 'antd';
import { Suspense } from 'react';
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
  // The stored user answers before the identity query has run, so no screen starts loading first.
  if ((data ?? session.user())?.mustChangePassword) return <ChangePasswordModal />;
  return (
    <CurrentOrganizationProvider>
      <ThemedLayout Header={Header} Sider={Sider}>
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
