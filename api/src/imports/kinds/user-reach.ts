/** The users import's guards over existing accounts (issue 25 item 8), as the users screen applies them. */
import type { UserType } from '@doanhoi/shared';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/context';
import { addableUsers } from '../../access/reach';
import { userScope, usersInScope } from '../../access/scope';
import { chunked } from '../lookups';
import type { Existing } from './user-rows';

/**
 * What hands over or rewrites the account (users/service.ts takesControl): a password, e-mail,
 * code, names or user type different from the current ones. Empty values are not changes.
 */
export function takesControl(
  cur: Existing,
  next: { password: string | null; code: string; familyName: string; givenName: string; email: string; userType: UserType },
): boolean {
  if (next.password !== null) return true;
  return (['code', 'familyName', 'givenName', 'email', 'userType'] as const).some((k) => next[k] !== '' && next[k] !== cur[k]);
}

/**
 * Existing users the import may give memberships: only someone already within the caller's reach
 * (access/reach.ts). An import adds people with users.create, so a member of a unit where the caller
 * holds it counts too, as much as one where the caller may add members.
 */
export async function addableExisting(db: Db, actor: Actor, ids: number[]): Promise<Set<number>> {
  const out = await addableUsers(db, actor, ids);
  const rest = ids.filter((id) => !out.has(id));
  const scope = await userScope(db, actor, 'users.create');
  for (const chunk of chunked([...new Set(rest)])) for (const id of await usersInScope(db, scope, chunk)) out.add(id);
  return out;
}
