import { Authenticated, Refine } from '@refinedev/core';
import routerProvider, { CatchAllNavigate, DocumentTitleHandler, UnsavedChangesNotifier } from '@refinedev/react-router';
import { App as AntdApp } from 'antd';
import { Outlet, Route, Routes } from 'react-router';
import { OrganisationsRedirect } from './components/spelling-redirect';
import { ThemeModeProvider } from './context/theme-mode';
import { LoginPage, RedirectSignedIn } from './pages/login';
import { StartupScreen } from './pages/startup';
import {
  accessControlProvider,
  authProvider,
  dataProvider,
  i18n,
  i18nProvider,
  NOTIFICATION_CONFIG,
  publicDataProvider,
  useNotificationProvider,
} from './providers';
import { queryClient } from './query-client';
import { resources } from './resources';
import {
  AppLayout,
  AuditLogList,
  EmailOutboxList,
  AuthCallbackPage,
  CampaignList,
  CampaignShowPage,
  ClassList,
  DashboardPage,
  DepartmentList,
  DuesPage,
  ReportsPage,
  ErrorComponent,
  ForgotPasswordPage,
  OrganizationMembersPage,
  OrganizationShowPage,
  OrganizationTreePage,
  ResetPasswordPage,
  RoleList,
  TransferList,
  UserList,
} from './screens';

const documentTitle = ({ resource }: { resource?: { meta?: { label?: string } } }) => {
  const app = i18n.t('appTitle');
  return resource?.meta?.label ? `${i18n.t(resource.meta.label)} | ${app}` : app;
};

/** Wiring only: providers, resources and the route tree of 000 §2 and 001 §2. */
export function App() {
  return (
    <ThemeModeProvider>
      <AntdApp notification={NOTIFICATION_CONFIG}>
        <Refine
          routerProvider={routerProvider}
          dataProvider={{ default: dataProvider, public: publicDataProvider }}
          authProvider={authProvider}
          accessControlProvider={accessControlProvider}
          i18nProvider={i18nProvider}
          notificationProvider={useNotificationProvider}
          resources={resources}
          options={{
            syncWithLocation: true,
            // Every form is a dialog: Hủy, × and Esc discard it at once. The browser's confirm could be
            // suppressed, and then nothing closed the dialog until a reload (issue 25 item 4).
            warnWhenUnsavedChanges: false,
            disableTelemetry: true,
            reactQuery: { clientConfig: queryClient },
          }}
        >
          <Routes>
            <Route
              element={
                <Authenticated key="protected" fallback={<CatchAllNavigate to="/login" />} loading={<StartupScreen />}>
                  <AppLayout />
                </Authenticated>
              }
            >
              <Route index element={<DashboardPage />} />
              <Route path="/users" element={<UserList />} />
              <Route path="/organizations">
                <Route index element={<OrganizationTreePage />} />
                <Route path=":type/:code" element={<OrganizationShowPage />} />
                <Route path=":type/:code/members" element={<OrganizationMembersPage />} />
                <Route path=":parentType/:parentCode/:type/:code" element={<OrganizationShowPage />} />
                <Route path=":parentType/:parentCode/:type/:code/members" element={<OrganizationMembersPage />} />
              </Route>
              <Route path="/organisations/*" element={<OrganisationsRedirect />} />
              <Route path="/departments" element={<DepartmentList />} />
              <Route path="/classes" element={<ClassList />} />
              <Route path="/permissions" element={<RoleList />} />
              <Route path="/admin/payment-campaigns">
                <Route index element={<CampaignList />} />
                <Route path=":id" element={<CampaignShowPage />} />
              </Route>
              <Route path="/dues" element={<DuesPage />} />
              <Route path="/reports" element={<ReportsPage />} />
              <Route path="/audit-logs" element={<AuditLogList />} />
              <Route path="/email-outbox" element={<EmailOutboxList />} />
              <Route path="/transfers" element={<TransferList />} />
              <Route path="*" element={<ErrorComponent />} />
            </Route>
            <Route
              element={
                <Authenticated key="auth-pages" fallback={<Outlet />} loading={<StartupScreen />}>
                  <RedirectSignedIn />
                </Authenticated>
              }
            >
              <Route path="/login" element={<LoginPage />} />
            </Route>
            <Route path="/auth/callback" element={<AuthCallbackPage />} />
            {/* Open to anyone, signed in or not: the e-mailed link may be opened in a browser holding another session. */}
            <Route path="/forgot-password" element={<ForgotPasswordPage />} />
            <Route path="/reset-password" element={<ResetPasswordPage />} />
          </Routes>
          <UnsavedChangesNotifier />
          <DocumentTitleHandler handler={documentTitle} />
        </Refine>
      </AntdApp>
    </ThemeModeProvider>
  );
}
