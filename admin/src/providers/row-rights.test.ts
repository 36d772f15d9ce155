import type { RoleGrant } from '@doanhoi/shared';
import { describe, expect, it } from 'vitest';
import { rowRights } from './row-rights';

// Faculty F (id 10) under the university (1); faculty G (20) beside it; chi đoàn 11 in F.
const inF = { organizationId: 10, ancestorIds: [1] };
const inCell = { organizationId: 11, ancestorIds: [1, 10] };
const inG = { organizationId: 20, ancestorIds: [1] };
const facultyAdmin: RoleGrant[] = [
  { name: 'org_admin', organizationId: 10, permissions: ['users.update', 'users.delete', 'users.roles.manage'] },
];

describe('users row actions are checked in the row user’s organizations', () => {
  it('a faculty admin manages a user of the faculty or beneath it, whatever the header says', () => {
    expect(rowRights(facultyAdmin, { memberOf: [inCell] })).toEqual({ edit: true, delete: true, roles: true });
  });

  it('a user of another faculty offers nothing', () => {
    expect(rowRights(facultyAdmin, { memberOf: [inG] })).toEqual({ edit: false, delete: false, roles: false });
  });

  it('a user also in another faculty may be edited but not deleted', () => {
    expect(rowRights(facultyAdmin, { memberOf: [inF, inG] })).toEqual({ edit: true, delete: false, roles: true });
  });

  it('a user who belongs nowhere needs a global grant', () => {
    expect(rowRights(facultyAdmin, { memberOf: [] })).toEqual({ edit: false, delete: false, roles: false });
    const global: RoleGrant[] = [{ ...facultyAdmin[0]!, organizationId: null }];
    expect(rowRights(global, { memberOf: [] })).toEqual({ edit: true, delete: true, roles: true });
  });

  it('an inactive role grants nothing', () => {
    expect(rowRights([{ ...facultyAdmin[0]!, isActive: false }], { memberOf: [inCell] }).edit).toBe(false);
  });
});
