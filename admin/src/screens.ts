/**
 * The resource screens, each loaded on first visit: the admin's single bundle had grown to ~1.9 MB,
 * and a member who only reaches the dashboard never needs the tables and dialogs.
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
export const AuditLogList = lazy(() => import('./resources/audit-logs').then((m) => ({ default: m.AuditLogList })));
