/**
 * The member's own profile (issue 15 part 6): always the caller's own record, never another's
 * (no id in the path), and only contact details may be changed.
 */
import type { MyProfile, MyProfileUpdate } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import { audit } from '../lib/audit';
import type { Deps } from '../lib/context';
import { notFound } from '../lib/errors';
import { membershipsOf, rowsByIds } from '../users/list';
import { toUser } from '../users/mapper';
import { users } from '../users/schema';
import { userSearchText } from '../users/search';

export function profileService({ db }: Deps, userId: number) {
  function read(): MyProfile {
    const [row] = rowsByIds(db, [userId]);
    if (!row) notFound('Không tìm thấy người dùng');
    // A membership the office ended is not one of "their organizations" any more.
    const memberships = membershipsOf(db, userId, true);
    return { ...toUser(row!), organizations: memberships.map((m) => ({ ...m, joinedAt: m.joinedAt.toISOString() })) };
  }

  return {
    read,

    updateContact(input: MyProfileUpdate, ip: string | null): MyProfile {
      const before = db.select().from(users).where(eq(users.id, userId)).get();
      if (!before) notFound('Không tìm thấy người dùng');
      db.transaction((tx) => {
        // The search column includes the phone (users are found by it), so it is rebuilt with it.
        tx.update(users)
          .set({ phone: input.phone, searchText: userSearchText({ ...before!, phone: input.phone }), updatedAt: new Date() })
          .where(eq(users.id, userId))
          .run();
        audit(tx, { actorId: userId, ip, action: 'user.update_own_contact', entity: 'user', entityId: userId, before: { phone: before!.phone }, after: { phone: input.phone } });
      });
      return read();
    },
  };
}
