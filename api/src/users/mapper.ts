import type { SessionUser } from '@doanhoi/shared';
import type { users } from './schema';

type UserRow = typeof users.$inferSelect;

/** The public shape of a user: never the password hash or the search column. */
export function toSessionUser(u: UserRow): SessionUser {
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
