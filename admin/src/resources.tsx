/**
 * The resources Refine knows: name (the API path under /api), route strings (000 §2, 001 §2),
 * meta.label (an i18n key), meta.icon and meta.permission (the code that shows the nav item
 * and guards its routes; meta.permissionAny lists codes that also open it). meta.guard=false leaves a route to the sign-in guard only; meta.universityWide
 * marks catalogues whose writes need a global grant.
 */
import {
  ApartmentOutlined,
  BookOutlined,
  BarChartOutlined,
  CalculatorOutlined,
  CreditCardOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  DollarOutlined,
  HistoryOutlined,
  MailOutlined,
  SafetyCertificateOutlined,
  SwapOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { ResourceProps } from '@refinedev/core';
import type { ReactNode } from 'react';

export const DATA_MANAGEMENT = 'data-management';

export const resources: ResourceProps[] = [
  {
    name: 'dashboard',
    list: '/',
    // 000 §2: "/" needs only a signed-in user; dashboard.access gates the nav item.
    meta: { label: 'nav.dashboard', icon: <DashboardOutlined />, permission: 'dashboard.access', guard: false },
  },
  { name: 'users', list: '/users', meta: { label: 'nav.users', icon: <UserOutlined />, permission: 'users.access' } },
  {
    name: 'organizations',
    list: '/organizations',
    show: '/organizations/:type/:code',
    meta: { label: 'nav.organizations', icon: <ApartmentOutlined />, permission: 'organizations.access' },
  },
  // The other organization screens are routes of their own; hidden resources give them a permission.
  {
    name: 'organization-members',
    list: '/organizations/:type/:code/members',
    meta: { label: 'nav.organizationMembers', hide: true, permission: 'organizations.access' },
  },
  {
    name: 'organization-children',
    list: '/organizations/:parentType/:parentCode/:type/:code',
    meta: { label: 'nav.organizations', hide: true, permission: 'organizations.access' },
  },
  {
    name: 'organization-child-members',
    list: '/organizations/:parentType/:parentCode/:type/:code/members',
    meta: { label: 'nav.organizationMembers', hide: true, permission: 'organizations.access' },
  },
  { name: DATA_MANAGEMENT, meta: { label: 'nav.dataManagement', icon: <DatabaseOutlined /> } },
  {
    name: 'departments',
    list: '/departments',
    meta: {
      label: 'nav.departments',
      icon: <BookOutlined />,
      parent: DATA_MANAGEMENT,
      permission: 'departments.access',
      universityWide: true,
    },
  },
  {
    name: 'classes',
    list: '/classes',
    meta: { label: 'nav.classes', icon: <TeamOutlined />, parent: DATA_MANAGEMENT, permission: 'classes.access', universityWide: true },
  },
  // The API resource is /roles; the screen lives at /permissions (000 §2).
  {
    name: 'roles',
    list: '/permissions',
    meta: { label: 'nav.permissions', icon: <SafetyCertificateOutlined />, permission: 'permissions.access' },
  },
  {
    name: 'payment-campaigns',
    list: '/admin/payment-campaigns',
    show: '/admin/payment-campaigns/:id',
    // Campaign codes say "read" where other categories say "view_details" (001 §6).
    meta: {
      label: 'nav.paymentAdmin',
      icon: <DollarOutlined />,
      permission: 'payment-campaigns.access',
      permissionActions: { show: 'read' },
    },
  },
  // Issue 30 items 4–5: đoàn phí rates, the generate-campaign wizard and trích nộp of the working unit.
  { name: 'dues', list: '/dues', meta: { label: 'dues:nav', icon: <CalculatorOutlined />, permission: 'payment-campaigns.access' } },
  // Issue 30 item 1: requests from and to the working unit; any transfer code (or manage_members) opens it.
  {
    name: 'transfers',
    list: '/transfers',
    meta: {
      label: 'nav.transfers',
      icon: <SwapOutlined />,
      permission: 'transfers.access',
      permissionAny: ['transfers.request', 'transfers.decide', 'organizations.manage_members'],
    },
  },
  // Issue 30 item 8: the membership and đoàn phí report of the working unit's subtree.
  { name: 'reports', list: '/reports', meta: { label: 'reports:nav', icon: <BarChartOutlined />, permission: 'reports.view' } },
  // Issue 15: audit.access in the working organization, or a global system.view_logs grant.
  {
    name: 'audit-logs',
    list: '/audit-logs',
    meta: { label: 'nav.auditLogs', icon: <HistoryOutlined />, permission: 'audit.access', permissionAny: ['system.view_logs'] },
  },
  // Reminder e-mails (issue 15.2): send_reminders in the working organization, or a global system.view_logs grant.
  {
    name: 'email-outbox',
    list: '/email-outbox',
    meta: {
      label: 'reminders:screen.nav',
      icon: <MailOutlined />,
      permission: 'payment-campaigns.send_reminders',
      permissionAny: ['system.view_logs'],
    },
  },
];

/** Other codes that open a resource besides meta.permission (any one is enough). */
export function alternatives(meta: Record<string, unknown> | undefined): string[] {
  return Array.isArray(meta?.permissionAny) ? (meta.permissionAny as string[]) : [];
}

/** Links to the portal app on the same origin: full-page loads, always shown (001 §2). */
export interface ExternalNavItem {
  key: string;
  href: string;
  label: string;
  icon: ReactNode;
}

export const externalNavItems: ExternalNavItem[] = [
  { key: 'my-payments', href: '/payment/my-campaigns', label: 'nav.myPayments', icon: <CreditCardOutlined /> },
];
