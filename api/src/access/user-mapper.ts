import type { MemberRecord, SessionUser, User } from '@doanhoi/shared';
import { users } from '../db/tables/users';

type UserRow = typeof users.$inferSelect;

/** The columns toSessionUser reads: a list selects these, never the password hash or the search column. */
export const sessionUserColumns = {
  id: users.id,
  code: users.code,
  email: users.email,
  familyName: users.familyName,
  givenName: users.givenName,
  phone: users.phone,
  userType: users.userType,
  membershipStatus: users.membershipStatus,
  isActive: users.isActive,
  mustChangePassword: users.mustChangePassword,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};
type SessionUserRow = Pick<UserRow, keyof typeof sessionUserColumns>;

/** The public shape of a user. */
export function toSessionUser(u: SessionUserRow): SessionUser {
  return {
    id: u.id,
    code: u.code,
    email: u.email,
    familyName: u.familyName,
    givenName: u.givenName,
    phone: u.phone,
    userType: u.userType,
    membershipStatus: u.membershipStatus,
    isActive: u.isActive,
    mustChangePassword: u.mustChangePassword,
    createdAt: u.createdAt.toISOString(),
    updatedAt: u.updatedAt.toISOString(),
  };
}

/** The columns a users-screen row needs (selected explicitly, so the hash is never read). */
export type UserListRow = Pick<
  UserRow,
  | 'id'
  | 'code'
  | 'familyName'
  | 'givenName'
  | 'email'
  | 'phone'
  | 'userType'
  | 'membershipStatus'
  | 'isActive'
  | 'mustChangePassword'
  | 'createdAt'
  | 'updatedAt'
  | 'classId'
  | 'managementDepartmentId'
  | 'trainingDepartmentId'
  | keyof MemberRecord
> & {
  className: string | null;
  managementDepartmentName: string | null;
  trainingDepartmentName: string | null;
};

function ref(id: number | null, name: string | null): { id: number; name: string } | null {
  return id == null || name == null ? null : { id, name };
}

export function toUser(r: UserListRow): User {
  return {
    id: r.id,
    code: r.code,
    familyName: r.familyName,
    givenName: r.givenName,
    email: r.email,
    phone: r.phone,
    userType: r.userType,
    membershipStatus: r.membershipStatus,
    isActive: r.isActive,
    mustChangePassword: r.mustChangePassword,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    class: ref(r.classId, r.className),
    managementDepartment: ref(r.managementDepartmentId, r.managementDepartmentName),
    trainingDepartment: ref(r.trainingDepartmentId, r.trainingDepartmentName),
    ...memberRecord(r),
  };
}

/** The member record's columns (issue 30 item 8), as stored. */
export function memberRecord(r: MemberRecord): MemberRecord {
  return {
    dateOfBirth: r.dateOfBirth,
    gender: r.gender,
    ethnicity: r.ethnicity,
    religion: r.religion,
    doanJoinedAt: r.doanJoinedAt,
    hoiJoinedAt: r.hoiJoinedAt,
    partyJoinedAt: r.partyJoinedAt,
    hometown: r.hometown,
  };
}

/** What the audit log keeps of a user: no hash, no search column, no timestamps. */
export function snapshot(u: UserRow) {
  return {
    id: u.id,
    code: u.code,
    familyName: u.familyName,
    givenName: u.givenName,
    email: u.email,
    phone: u.phone,
    userType: u.userType,
    membershipStatus: u.membershipStatus,
    isActive: u.isActive,
    mustChangePassword: u.mustChangePassword,
    classId: u.classId,
    managementDepartmentId: u.managementDepartmentId,
    trainingDepartmentId: u.trainingDepartmentId,
    ...memberRecord(u),
  };
}
