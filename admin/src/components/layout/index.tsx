import { ThemedLayout } from '@refinedev/antd';
import { Spin } from 'antd';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { CurrentOrganizationProvider } from '../../context/current-organization';
import { ChangePasswordModal } from '../change-password';
import { ResourceGuard } from '../permission-guard';
import { Header } from './header';
import { Sider } from './sider';

/** The signed-in shell: every page renders inside the sider/header layout and its resource guard. */
export function AppLayout() {
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
