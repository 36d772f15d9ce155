import { describe, expect, it } from 'vitest';
import {
  categoryOrder,
  isSystemPermission,
  PERMISSION_CATEGORIES,
  PERMISSIONS,
  permissionDefinition,
  SUPER_ADMIN_PERMISSION,
  SUPER_ADMIN_ROLE,
} from './catalogue';

const codes = PERMISSIONS.map((p) => p.code);

/** Every code the spec names: 000 §3 (fallback list), 000 §6 and 001 §6. */
const SPEC_CODES = [
  'dashboard.access',
  ...['access', 'create', 'view_details', 'update', 'delete', 'export', 'roles.manage'].map((a) => `users.${a}`),
  ...[
    'access',
    'create',
    'view_details',
    'view_member_count',
    'access_children',
    'update',
    'delete',
    'export',
    'add_member',
    'remove_member',
    'manage_members',
  ].map((a) => `organizations.${a}`),
  ...['departments', 'classes'].flatMap((c) => ['access', 'create', 'view_details', 'update', 'delete', 'export'].map((a) => `${c}.${a}`)),
  ...['access', 'create', 'view_details', 'update', 'delete'].map((a) => `permissions.${a}`),
  ...['access', 'create', 'read', 'update', 'delete', 'manage_assignments', 'view_reports', 'export', 'send_reminders'].map(
    (a) => `payment-campaigns.${a}`,
  ),
  ...['access', 'view', 'pay', 'history'].map((a) => `my-payments.${a}`),
  ...['access_admin', 'manage_settings', 'view_logs'].map((a) => `system.${a}`),
];

describe('permission catalogue', () => {
  it('holds about 50 unique codes of the form category.action', () => {
    expect(codes.length).toBeGreaterThanOrEqual(45);
    // Issue 30 adds transfer, membership-end, đoàn phí and remittance codes.
    expect(codes.length).toBeLessThanOrEqual(75);
    expect(new Set(codes).size).toBe(codes.length);
    for (const c of codes) expect(c).toMatch(/^[a-z-]+(\.[a-z_]+)+$/);
  });

  it('contains every code the specification names', () => {
    const missing = SPEC_CODES.filter((c) => !codes.includes(c));
    expect(missing).toEqual([]);
  });

  it('keeps the category order of 000 §2, then system, then audit (issue 15)', () => {
    expect([...PERMISSION_CATEGORIES]).toEqual([
      'dashboard',
      'users',
      'organizations',
      'departments',
      'classes',
      'payments',
      'my-payments',
      'permissions',
      'system',
      'audit',
      'transfers',
    ]);
    expect(categoryOrder('dashboard')).toBe(0);
    expect(categoryOrder('permissions')).toBe(7);
    expect(categoryOrder('unknown')).toBe(PERMISSION_CATEGORIES.length);
  });

  it('fills every category, sorted by category then position, each non-system category starting with its .access', () => {
    const sorted = [...PERMISSIONS].sort((a, b) => a.sortOrder - b.sortOrder);
    expect(sorted.map((p) => p.code)).toEqual(codes);
    expect(new Set(PERMISSIONS.map((p) => p.sortOrder)).size).toBe(PERMISSIONS.length);
    for (const cat of PERMISSION_CATEGORIES) {
      const inCat = sorted.filter((p) => p.category === cat);
      expect(inCat.length, cat).toBeGreaterThan(0);
      if (cat !== 'system') expect(inCat[0]!.code, cat).toMatch(/\.access$/);
    }
    // Categories follow each other in order: no category's codes interleave with another's.
    const order = sorted.map((p) => categoryOrder(p.category));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('marks organizations.create, permissions.* and system.* (and only those) as system context', () => {
    const system = PERMISSIONS.filter((p) => p.context === 'system').map((p) => p.code);
    expect(system.sort()).toEqual(
      [
        'organizations.create',
        'permissions.access',
        'permissions.create',
        'permissions.view_details',
        'permissions.update',
        'permissions.delete',
        'system.access_admin',
        'system.manage_settings',
        'system.view_logs',
      ].sort(),
    );
    expect(isSystemPermission('organizations.create')).toBe(true);
    expect(isSystemPermission('organizations.update')).toBe(false);
    expect(isSystemPermission('not.a.code')).toBe(false);
  });

  it('gives every code a Vietnamese name and looks codes up', () => {
    for (const p of PERMISSIONS) expect(p.name.trim().length, p.code).toBeGreaterThan(0);
    expect(permissionDefinition('users.roles.manage')).toMatchObject({ category: 'users', context: 'organization' });
    expect(permissionDefinition('payment-campaigns.read')).toMatchObject({ category: 'payments' });
    expect(permissionDefinition('nope')).toBeUndefined();
  });

  it('names the super admin role and permission', () => {
    expect(SUPER_ADMIN_ROLE).toBe('super_admin');
    expect(SUPER_ADMIN_PERMISSION).toBe('system.access_admin');
    expect(codes).toContain(SUPER_ADMIN_PERMISSION);
  });
});
