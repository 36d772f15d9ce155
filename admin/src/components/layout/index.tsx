import { ThemedLayout } from '@refinedev/antd';
import { Spin } from 'antd';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { CurrentOrganizationProvider } from '../../context/current-organization';
import { ChangePasswordModal } from '../change-password';
import { ResourceGuard } from '../permission-guard';
import { Header } from './header';
import { Sider } from './sider';

/** The signed-in shell: every page renders inside the sider/header layout and its resource guard. */
export function AppLayout() {
  // Refine's translate does not re-render on a language change and the layout memoizes its header
  // and sider: the shell is mounted again in the new language (data stays cached), so no text is left behind.
  const { i18n } = useTranslation();
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
