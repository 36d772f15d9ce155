/**
 * Every screen behind the sign-in, each loaded on first visit: the admin's single bundle had grown to
 * ~1.9 MB, a member who only reaches the dashboard never needs the tables and dialogs, and the sign-in
 * page must stay under 400 KB (issue 12) — so the signed-in shell (Refine's antd layout), the dashboard
 * (and its charts) and Refine's error page are split off too. Nothing here may be imported statically.
 */
import { lazy } from 'react';

export const UserList = lazy(() => import('./resources/users').then((m) => ({ default: m.UserList })));
export const OrganizationTreePage = lazy(() => import('./resources/organizations').then((m) => ({ default: m.OrganizationTreePage })));
export const OrganizationShowPage = lazy(() => import('./resources/organizations').then((m) => ({ default: m.OrganizationShowPage })));
export const OrganizationMembersPage = lazy(() => import('./resources/organizations').then((m) => ({ default: m.OrganizationMembersPage })));
export const DepartmentList = lazy(() => import('./resources/departments').then((m) => ({ default: m.DepartmentList })));
export const ClassList = lazy(() => import('./resources/classes').then((m) => ({ default: m.ClassList })));
export const RoleList = lazy(() => import('./resources/roles').then((m) => ({ default: m.RoleList })));
export const CampaignList = lazy(() => import('./resources/payment-campaigns').then((m) => ({ default: m.CampaignList })));
export const CampaignShowPage = lazy(() => import('./resources/payment-campaigns').then((m) => ({ default: m.CampaignShowPage })));
export const EmailOutboxList = lazy(() => import('./resources/email-outbox').then((m) => ({ default: m.EmailOutboxList })));
export const AuditLogList = lazy(() => import('./resources/audit-logs').then((m) => ({ default: m.AuditLogList })));
export const AppLayout = lazy(() => import('./components/layout').then((m) => ({ default: m.AppLayout })));
export const DashboardPage = lazy(() => import('./pages/dashboard').then((m) => ({ default: m.DashboardPage })));
export const AuthCallbackPage = lazy(() => import('./pages/auth-callback').then((m) => ({ default: m.AuthCallbackPage })));
export const ErrorComponent = lazy(() => import('@refinedev/antd').then((m) => ({ default: m.ErrorComponent })));
