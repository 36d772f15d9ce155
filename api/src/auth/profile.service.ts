/**
 * The member's own profile (issue 15 part 6): always the caller's own record, never another's
 * (no id in the path), and only contact details, religion and hometown may be changed (the rest of
 * the member record is the office's: docs/decisions.md, issue 30 item 8).
 */
import type { MyProfile, MyProfileUpdate } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import { audit } from '../audit/writer';
import type { Deps } from '../lib/context';
import { notFound } from '../lib/errors';
import { membershipsOf } from '../users/memberships-of';
import { rowsByIds } from '../users/rows';
import { toUser } from '../access/user-mapper';
import { users } from '../db/tables/users';
import { userSearchText } from '../users/search';
import { firstRow, runQuery, withTransaction } from '../db/engine';

export function profileService({ db }: Deps, userId: number) {
  async function read(): Promise<MyProfile> {
    const [row] = await rowsByIds(db, [userId]);
    if (!row) notFound('Không tìm thấy người dùng');
    // A membership the office ended is not one of "their organizations" any more.
    const memberships = await membershipsOf(db, userId, true);
    return { ...toUser(row!), organizations: memberships.map((m) => ({ ...m, joinedAt: m.joinedAt.toISOString() })) };
  }

  return {
    read,

    async updateContact(input: MyProfileUpdate, ip: string | null): Promise<MyProfile> {
      const before = await firstRow(db.select().from(users).where(eq(users.id, userId)));
      if (!before) notFound('Không tìm thấy người dùng');
      // Only the fields the body named; the audit row holds those, before and after.
      const next = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<
        Record<keyof MyProfileUpdate, string | null>
      >;
      const was = Object.fromEntries(Object.keys(next).map((k) => [k, before![k as keyof MyProfileUpdate]]));
      await withTransaction(db, async (tx) => {
        // The search column includes the phone (users are found by it), so it is rebuilt with it.
        const phone = next.phone === undefined ? before!.phone : next.phone;
        await runQuery(
          tx
            .update(users)
            .set({ ...next, searchText: userSearchText({ ...before!, phone }), updatedAt: new Date() })
            .where(eq(users.id, userId)),
        );
        await audit(tx, {
          actorId: userId,
          ip,
          action: 'user.update_own_contact',
          entity: 'user',
          entityId: userId,
          before: was,
          after: next,
        });
      });
      return read();
    },
  };
}
