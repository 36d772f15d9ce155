/**
 * Whom a caller may add to a unit (issue 25 item 8). Adding makes a user reachable, and reaching
 * opens their record to the unit's officers; so only someone already inside the caller's reach
 * can be added: an active member of an organization where the caller may add members, or of one
 * beneath it. A user with no membership (an orphan) is reached only through a global grant.
 * Moving someone between faculties is a transfer, not an add.
 */
import type { Db } from '../db/client';
import type { Actor } from '../lib/context';
import { userScope, usersInScope } from './scope';

/** The codes that let someone add members (organizations/membership.ts, the member import). */
export const ADD_MEMBER_CODES = ['organizations.add_member', 'organizations.manage_members'];

const CHUNK = 500;

/** The ids among `userIds` the caller may add to a unit of theirs. */
export async function addableUsers(db: Db, actor: Actor, userIds: number[]): Promise<Set<number>> {
  const unique = [...new Set(userIds)];
  if (actor.isSuperAdmin) return new Set(unique);
  const out = new Set<number>();
  for (const code of ADD_MEMBER_CODES) {
    const scope = await userScope(db, actor, code);
    const rest = unique.filter((id) => !out.has(id));
    for (let i = 0; i < rest.length; i += CHUNK) for (const id of await usersInScope(db, scope, rest.slice(i, i + CHUNK))) out.add(id);
  }
  return out;
}

export const OUTSIDE_REACH_MESSAGE =
  'Người dùng này không thuộc đơn vị nào trong phạm vi quản lý của bạn nên không thể thêm vào đơn vị. Việc chuyển sinh hoạt giữa các đơn vị do cấp quản lý chung thực hiện';
