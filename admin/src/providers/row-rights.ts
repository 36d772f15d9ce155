/**
 * What a users-screen row may offer, checked in the row user's own organizations (the rows'
 * memberOf) rather than the header's: the API decides by the user's organizations too, so the
 * screen hides what it would refuse (000 §6, shared check.ts).
 */
// The check's own module: the access-control provider loads this file, and the package barrel would
// put every zod schema on the sign-in page.
import type { UserListItem } from '@doanhoi/shared';
import { hasPermission, type RoleGrant } from '@doanhoi/shared/permissions/check';

export interface RowRights {
  edit: boolean;
  delete: boolean;
  roles: boolean;
}

export function rowRights(grants: readonly RoleGrant[], u: Pick<UserListItem, 'memberOf'>): RowRights {
  // A user who belongs nowhere is reached only by a global grant.
  const contexts = u.memberOf.length > 0 ? u.memberOf : [null];
  const inSome = (code: string) => contexts.some((ctx) => hasPermission(grants, code, ctx));
  const inEvery = (code: string) => contexts.every((ctx) => hasPermission(grants, code, ctx));
  return {
    // Other fields follow the users.update reach: one of the user's organizations is enough.
    edit: inSome('users.update'),
    // Deleting takes the account away: the right in every organization they belong to (users/manage.ts).
    delete: inEvery('users.delete'),
    roles: inSome('users.roles.manage'),
  };
}
