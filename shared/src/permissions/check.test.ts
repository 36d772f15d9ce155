import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from './catalogue';
import {
  effectivePermissions,
  hasAllPermissions,
  hasAnyPermission,
  hasPermission,
  holdsAnywhere,
  isSuperAdmin,
  permissionScope,
  roleAppliesIn,
  type OrgContext,
  type RoleGrant,
} from './check';

/*
 * Organization tree used throughout:
 *   1 Đoàn trường
 *   ├─ 2 Đoàn khoa CNTT
 *   │   └─ 3 Chi đoàn 66IT1
 *   └─ 4 Đoàn khoa Kinh tế (sibling of 2)
 *       └─ 5 Chi đoàn 66KT1
 */
const ANCESTORS: Record<number, number[]> = { 1: [], 2: [1], 3: [2, 1], 4: [1], 5: [4, 1] };
const at = (organizationId: number): OrgContext => ({ organizationId, ancestorIds: ANCESTORS[organizationId]! });

const role = (permissions: string[], organizationId: number | null = null, extra: Partial<RoleGrant> = {}): RoleGrant => ({
  name: 'staff',
  organizationId,
  permissions,
  ...extra,
});

describe('hasPermission — 000 §6', () => {
  it('is false without a user or without roles', () => {
    expect(hasPermission(null, 'users.access')).toBe(false);
    expect(hasPermission(undefined, 'users.access', at(1))).toBe(false);
    expect(hasPermission([], 'users.access')).toBe(false);
    expect(hasPermission([], 'users.access', at(3))).toBe(false);
  });

  it('is false for a code no role contains', () => {
    expect(hasPermission([role(['users.access'])], 'users.delete')).toBe(false);
  });

  it('a global role applies everywhere, with or without an organization context', () => {
    const roles = [role(['users.access', 'classes.update'])];
    expect(hasPermission(roles, 'users.access')).toBe(true);
    expect(hasPermission(roles, 'users.access', null)).toBe(true);
    for (const id of [1, 2, 3, 4, 5]) expect(hasPermission(roles, 'classes.update', at(id))).toBe(true);
  });

  it('an organization role applies in its organization and every organization beneath it', () => {
    const roles = [role(['users.update'], 2)];
    expect(hasPermission(roles, 'users.update', at(2))).toBe(true);
    expect(hasPermission(roles, 'users.update', at(3))).toBe(true);
  });

  it('an organization role does not apply above it, beside it, or without a context', () => {
    const roles = [role(['users.update'], 2)];
    expect(hasPermission(roles, 'users.update', at(1))).toBe(false); // parent
    expect(hasPermission(roles, 'users.update', at(4))).toBe(false); // sibling
    expect(hasPermission(roles, 'users.update', at(5))).toBe(false); // sibling's child
    expect(hasPermission(roles, 'users.update')).toBe(false); // no context
    expect(hasPermission(roles, 'users.update', null)).toBe(false);
  });

  it('a role held in a leaf organization applies only there', () => {
    const roles = [role(['classes.access'], 3)];
    expect(hasPermission(roles, 'classes.access', at(3))).toBe(true);
    expect(hasPermission(roles, 'classes.access', at(2))).toBe(false);
  });

  it('ignores inactive roles but keeps the active ones', () => {
    const inactive = role(['users.delete'], null, { isActive: false });
    expect(hasPermission([inactive], 'users.delete')).toBe(false);
    expect(hasPermission([inactive, role(['users.delete'], 2)], 'users.delete', at(3))).toBe(true);
    expect(hasPermission([role(['users.delete'], null, { isActive: true })], 'users.delete')).toBe(true);
  });

  it('sums several roles: each one in its own scope', () => {
    const roles = [role(['users.access'], 2), role(['classes.access'], 4)];
    expect(hasPermission(roles, 'users.access', at(3))).toBe(true);
    expect(hasPermission(roles, 'classes.access', at(3))).toBe(false);
    expect(hasPermission(roles, 'classes.access', at(5))).toBe(true);
    expect(hasPermission(roles, 'users.access', at(5))).toBe(false);
  });
});

describe('super admin', () => {
  it('a global role named super_admin holds every code, even with an empty permission list', () => {
    const roles = [role([], null, { name: 'super_admin' })];
    expect(isSuperAdmin(roles)).toBe(true);
    expect(hasPermission(roles, 'users.delete')).toBe(true);
    expect(hasPermission(roles, 'permissions.create', at(3))).toBe(true);
    expect(hasPermission(roles, 'organizations.create')).toBe(true);
  });

  it('system.access_admin from a global role makes a super admin', () => {
    const roles = [role(['system.access_admin'], null, { name: 'it_admin' })];
    expect(isSuperAdmin(roles)).toBe(true);
    expect(hasPermission(roles, 'classes.delete', at(5))).toBe(true);
  });

  it('system.access_admin from an organization role does not', () => {
    const roles = [role(['system.access_admin', 'users.access'], 2, { name: 'it_admin' })];
    expect(isSuperAdmin(roles)).toBe(false);
    expect(hasPermission(roles, 'system.access_admin', at(2))).toBe(false);
    expect(hasPermission(roles, 'users.delete', at(2))).toBe(false);
    expect(hasPermission(roles, 'users.access', at(3))).toBe(true);
  });

  it('the super_admin role linked to an organization does not make a super admin (decisions.md)', () => {
    const roles = [role(['users.access', 'organizations.create'], 2, { name: 'super_admin' })];
    expect(isSuperAdmin(roles)).toBe(false);
    expect(hasPermission(roles, 'users.access', at(3))).toBe(true);
    expect(hasPermission(roles, 'users.access', at(4))).toBe(false);
    expect(hasPermission(roles, 'organizations.create', at(2))).toBe(false);
  });

  it('an inactive super_admin role grants nothing', () => {
    const roles = [role(['system.access_admin'], null, { name: 'super_admin', isActive: false })];
    expect(isSuperAdmin(roles)).toBe(false);
    expect(hasPermission(roles, 'users.access')).toBe(false);
    expect(isSuperAdmin(null)).toBe(false);
    expect(isSuperAdmin([])).toBe(false);
  });
});

describe('system-context codes', () => {
  const systemCodes = ['organizations.create', 'permissions.access', 'permissions.update', 'system.manage_settings', 'system.view_logs'];

  it('are not granted by organization roles, not even in that organization', () => {
    const roles = [role(systemCodes, 1)];
    for (const code of systemCodes) {
      expect(hasPermission(roles, code, at(1))).toBe(false);
      expect(hasPermission(roles, code, at(3))).toBe(false);
      expect(hasPermission(roles, code)).toBe(false);
    }
  });

  it('are granted by global roles, in any context', () => {
    const roles = [role(systemCodes)];
    for (const code of systemCodes) {
      expect(hasPermission(roles, code)).toBe(true);
      expect(hasPermission(roles, code, at(3))).toBe(true);
    }
  });
});

describe('hasAnyPermission / hasAllPermissions', () => {
  const roles = [role(['users.access', 'users.create'], 2)];

  it('any-of is true when one code is held in the context', () => {
    expect(hasAnyPermission(roles, ['users.delete', 'users.create'], at(3))).toBe(true);
    expect(hasAnyPermission(roles, ['users.delete', 'classes.access'], at(3))).toBe(false);
    expect(hasAnyPermission(roles, ['users.create'], at(4))).toBe(false);
    expect(hasAnyPermission(roles, [], at(2))).toBe(false);
  });

  it('all-of needs every code in the context', () => {
    expect(hasAllPermissions(roles, ['users.access', 'users.create'], at(2))).toBe(true);
    expect(hasAllPermissions(roles, ['users.access', 'users.delete'], at(2))).toBe(false);
    expect(hasAllPermissions(roles, ['users.access', 'users.create'], at(1))).toBe(false);
  });

  it('both are false without a user, even for an empty list', () => {
    expect(hasAnyPermission(null, ['users.access'])).toBe(false);
    expect(hasAllPermissions(null, ['users.access'])).toBe(false);
    expect(hasAllPermissions([], [])).toBe(false);
    expect(hasAllPermissions(undefined, [])).toBe(false);
  });

  it('a super admin passes both', () => {
    const admin = [role([], null, { name: 'super_admin' })];
    expect(hasAnyPermission(admin, ['payment-campaigns.export'], at(5))).toBe(true);
    expect(hasAllPermissions(admin, ['payment-campaigns.export', 'permissions.delete'], at(5))).toBe(true);
  });
});

describe('effectivePermissions', () => {
  it('is the de-duplicated, sorted union of the roles that apply in the context', () => {
    const roles = [
      role(['users.access', 'users.create'], null),
      role(['users.access', 'classes.access'], 2),
      role(['users.access', 'departments.access'], 4),
      role(['users.delete'], null, { isActive: false }),
    ];
    expect(effectivePermissions(roles, at(3))).toEqual(['classes.access', 'users.access', 'users.create']);
    expect(effectivePermissions(roles, at(5))).toEqual(['departments.access', 'users.access', 'users.create']);
    expect(effectivePermissions(roles)).toEqual(['users.access', 'users.create']);
  });

  it('leaves out system codes held through an organization role', () => {
    const roles = [role(['permissions.access', 'organizations.create', 'organizations.update'], 2)];
    expect(effectivePermissions(roles, at(2))).toEqual(['organizations.update']);
  });

  it('is empty without a user or roles', () => {
    expect(effectivePermissions(null)).toEqual([]);
    expect(effectivePermissions([], at(1))).toEqual([]);
  });

  it('is the whole catalogue for a super admin (as hasPermission answers)', () => {
    const all = PERMISSIONS.map((p) => p.code).sort();
    expect(effectivePermissions([role(['system.access_admin'])])).toEqual(all);
    expect(effectivePermissions([role([], null, { name: 'super_admin' })], at(3))).toEqual(all);
  });
});

describe('permissionScope / holdsAnywhere', () => {
  it('is {all} for a global holder or a super admin', () => {
    expect(permissionScope([role(['users.access'])], 'users.access')).toEqual({ all: true });
    expect(permissionScope([role(['users.access'], 2), role(['users.access'])], 'users.access')).toEqual({ all: true });
    expect(permissionScope([role([], null, { name: 'super_admin' })], 'classes.delete')).toEqual({ all: true });
  });

  it('lists the organizations of the organization roles that hold the code, once each', () => {
    const roles = [
      role(['users.access'], 2),
      role(['users.access', 'users.create'], 4),
      role(['users.access'], 2),
      role(['users.create'], 3),
    ];
    const s = permissionScope(roles, 'users.access');
    expect(s.all).toBe(false);
    expect(s.all === false && [...s.organizationIds].sort()).toEqual([2, 4]);
    expect(holdsAnywhere(roles, 'users.access')).toBe(true);
  });

  it('ignores inactive roles and roles without the code', () => {
    const roles = [role(['users.access'], null, { isActive: false }), role(['classes.access'], 2)];
    expect(permissionScope(roles, 'users.access')).toEqual({ all: false, organizationIds: [] });
    expect(holdsAnywhere(roles, 'users.access')).toBe(false);
  });

  it('is empty for a system code held only through organization roles', () => {
    const roles = [role(['organizations.create', 'permissions.access'], 1)];
    expect(permissionScope(roles, 'organizations.create')).toEqual({ all: false, organizationIds: [] });
    expect(holdsAnywhere(roles, 'permissions.access')).toBe(false);
  });

  it('is empty without a user', () => {
    expect(permissionScope(null, 'users.access')).toEqual({ all: false, organizationIds: [] });
    expect(holdsAnywhere(undefined, 'users.access')).toBe(false);
  });
});

describe('roleAppliesIn', () => {
  it('global roles apply anywhere; organization roles need a matching context', () => {
    expect(roleAppliesIn(role([]), null)).toBe(true);
    expect(roleAppliesIn(role([], 2), at(3))).toBe(true);
    expect(roleAppliesIn(role([], 3), at(2))).toBe(false);
    expect(roleAppliesIn(role([], 2), undefined)).toBe(false);
  });
});
