/**
 * Every screen behind the sign-in, each loaded on first visit: the admin's single bundle had grown to
 * ~1.9 MB, a member who only reaches the dashboard never needs the tables and dialogs, and the sign-in
 * page must stay under 400 KB (issue 12) — so the signed-in shell (Refine's antd layout), the dashboard
 * (and its charts) and Refine's error page are split off too. Nothing here may be imported statically.
 */
import { lazy } from 'react';

/** Each menu screen's chunk by its route, so the side menu can start loading it before the click. */
const loaders = {
  '/users': () => import('./resources/users'),
  '/organizations': () => import('./resources/organizations'),
  '/departments': () => import('./resources/departments'),
  '/classes': () => import('./resources/classes'),
  '/permissions': () => import('./resources/roles'),
  '/admin/payment-campaigns': () => import('./resources/payment-campaigns'),
  '/audit-logs': () => import('./resources/audit-logs'),
  '/email-outbox': () => import('./resources/email-outbox'),
  '/transfers': () => import('./resources/transfers'),
  '/dues': () => import('./resources/dues'),
  '/reports': () => import('./resources/reports'),
};

/**
 * Starts loading a menu screen's code (pointer over or focus on its menu link): the browser keeps
 * the module, so the click then renders at once instead of waiting for the chunk (issue 12).
 * A failed preload is forgotten; the click loads it again and shows the error there.
 */
export function preloadScreen(route: string | undefined) {
  const load = route ? loaders[route as keyof typeof loaders] : undefined;
  if (load) load().catch(() => undefined);
}

/**
 * The users screen is the one most visits go to next: its code loads once the browser is idle, or
 * after a second at the latest (a dashboard still drawing its charts on a slow computer is never idle).
 */
export function preloadLikelyScreens() {
  const load = () => preloadScreen('/users');
  if (window.requestIdleCallback) window.requestIdleCallback(load, { timeout: 1000 });
  else window.setTimeout(load, 1000);
}

export const UserList = lazy(() => loaders['/users']().then((m) => ({ default: m.UserList })));
export const OrganizationTreePage = lazy(() => loaders['/organizations']().then((m) => ({ default: m.OrganizationTreePage })));
export const OrganizationShowPage = lazy(() => loaders['/organizations']().then((m) => ({ default: m.OrganizationShowPage })));
export const OrganizationMembersPage = lazy(() => loaders['/organizations']().then((m) => ({ default: m.OrganizationMembersPage })));
export const DepartmentList = lazy(() => loaders['/departments']().then((m) => ({ default: m.DepartmentList })));
export const ClassList = lazy(() => loaders['/classes']().then((m) => ({ default: m.ClassList })));
export const RoleList = lazy(() => loaders['/permissions']().then((m) => ({ default: m.RoleList })));
export const CampaignList = lazy(() => loaders['/admin/payment-campaigns']().then((m) => ({ default: m.CampaignList })));
export const CampaignShowPage = lazy(() => loaders['/admin/payment-campaigns']().then((m) => ({ default: m.CampaignShowPage })));
export const EmailOutboxList = lazy(() => loaders['/email-outbox']().then((m) => ({ default: m.EmailOutboxList })));
export const TransferList = lazy(() => loaders['/transfers']().then((m) => ({ default: m.TransferList })));
export const DuesPage = lazy(() => loaders['/dues']().then((m) => ({ default: m.DuesPage })));
export const ReportsPage = lazy(() => loaders['/reports']().then((m) => ({ default: m.ReportsPage })));
export const AuditLogList = lazy(() => loaders['/audit-logs']().then((m) => ({ default: m.AuditLogList })));
export const AppLayout = lazy(() => import('./components/layout').then((m) => ({ default: m.AppLayout })));
export const DashboardPage = lazy(() => import('./pages/dashboard').then((m) => ({ default: m.DashboardPage })));
export const AuthCallbackPage = lazy(() => import('./pages/auth-callback').then((m) => ({ default: m.AuthCallbackPage })));
export const ForgotPasswordPage = lazy(() => import('./pages/forgot-password').then((m) => ({ default: m.ForgotPasswordPage })));
export const ResetPasswordPage = lazy(() => import('./pages/reset-password').then((m) => ({ default: m.ResetPasswordPage })));
export const ErrorComponent = lazy(() => import('@refinedev/antd').then((m) => ({ default: m.ErrorComponent })));
