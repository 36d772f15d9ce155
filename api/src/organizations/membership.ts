/**
 * Organization memberships (000 §4): adding joins the parents too, but only those where the caller
 * may add members (never above their reach), and only someone already within that reach
 * (access/reach.ts); removal leaves a level and everything beneath it (removal.ts).
 */
import { fullName, hasPermission, isSuperAdmin } from '@doanhoi/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { audit } from '../audit/writer';
import type { Tx } from '../db/client';
import type { Actor, Deps } from '../lib/context';
import { badRequest, conflict, fail, forbidden, notFound } from '../lib/errors';
import { loadRoleGrants } from '../access/grants';
import { ADD_MEMBER_CODES, addableUsers } from '../access/reach';
import { userScope, usersInScope } from '../access/scope';
import { users } from '../db/tables/users';
import { isVisible, requireIn, visibility, visibleOrg } from '../access/organizations';
import { pathIds } from '../access/organization-context';
import { activeMemberships, chosenOption, namesList, REMOVE_MEMBER_CODES as REMOVE, removalPlan } from './removal';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';
import { filterInOrder, mapInOrder } from '../lib/in-order';

const ADD = ADD_MEMBER_CODES;
const TRANSFER_INSTEAD =
  'Người dùng này đang sinh hoạt ở đơn vị ngoài phạm vi quản lý của bạn nên không thể thêm trực tiếp. Hãy gửi yêu cầu chuyển sinh hoạt để đơn vị hiện tại của họ xem xét';

/**
 * Adds (or reactivates, clearing an earlier ending) a user's memberships of these units; returns the units whose
 * membership changed, in the order given. One read, then at most one INSERT and one UPDATE per role: on PostgreSQL
 * a statement's memberships bring the figures up to date together (drizzle-pg 0018/0025), so a unit and its parents
 * cost one sync, not one each.
 */
export async function joinAll(
  tx: Tx,
  organizationIds: number[],
  userId: number,
  roleOf: (organizationId: number) => string,
  joinedAt = new Date(),
): Promise<number[]> {
  if (organizationIds.length === 0) return [];
  const existing = new Map(
    (
      await allRows(
        tx
          .select({
            id: organizationMembers.id,
            organizationId: organizationMembers.organizationId,
            isActive: organizationMembers.isActive,
          })
          .from(organizationMembers)
          .where(and(eq(organizationMembers.userId, userId), inArray(organizationMembers.organizationId, organizationIds))),
      )
    ).map((m) => [m.organizationId, m]),
  );
  const changed = organizationIds.filter((id) => !existing.get(id)?.isActive);
  const fresh = changed.filter((id) => !existing.has(id));
  if (fresh.length)
    await runQuery(
      tx
        .insert(organizationMembers)
        .values(fresh.map((organizationId) => ({ organizationId, userId, role: roleOf(organizationId), joinedAt }))),
    );
  const revived = changed.filter((id) => existing.has(id));
  for (const role of new Set(revived.map(roleOf)))
    await runQuery(
      tx
        .update(organizationMembers)
        .set({ isActive: true, role, joinedAt, endedAt: null, endReason: null, endNote: null })
        .where(
          inArray(
            organizationMembers.id,
            revived.filter((id) => roleOf(id) === role).map((id) => existing.get(id)!.id),
          ),
        ),
    );
  return changed;
}

export function membershipService({ db }: Deps, actor: Actor, ip: string | null) {
  const changed = () => {};
  const user = async (id: number) => {
    const u = await firstRow(
      db
        .select({ id: users.id, code: users.code, familyName: users.familyName, givenName: users.givenName })
        .from(users)
        .where(eq(users.id, id)),
    );
    if (!u) notFound('Không tìm thấy người dùng');
    return u!;
  };
  /** May the caller add members here? Parents joined "with parents" are limited to these (never above the caller's reach). */
  const mayAddIn = (organizationId: number, path: string) => {
    const ctx = { organizationId, ancestorIds: pathIds(path).filter((id) => id !== organizationId) };
    return ADD.some((code) => hasPermission(actor.roles, code, ctx));
  };
  const pathsOf = async (ids: number[]) =>
    new Map(
      ids.length
        ? (
            await allRows(
              db.select({ id: organizations.id, path: organizations.path }).from(organizations).where(inArray(organizations.id, ids)),
            )
          ).map((o) => [o.id, o.path])
        : [],
    );
  /** The user (404 when unknown) and whether they are an active member here: one statement, as every add asks both. */
  const userAndMembership = async (organizationId: number, userId: number) => {
    const row = await firstRow(
      db
        .select({
          id: users.id,
          member: sql<boolean | number>`EXISTS (SELECT 1 FROM ${organizationMembers} WHERE ${and(
            eq(organizationMembers.organizationId, organizationId),
            eq(organizationMembers.userId, users.id),
            eq(organizationMembers.isActive, true),
          )})`,
        })
        .from(users)
        .where(eq(users.id, userId)),
    );
    if (!row) notFound('Không tìm thấy người dùng');
    return { member: Boolean(row!.member) };
  };
  const isMember = async (organizationId: number, userId: number) =>
    !!(await firstRow(
      db
        .select({ id: organizationMembers.id })
        .from(organizationMembers)
        .where(
          and(
            eq(organizationMembers.organizationId, organizationId),
            eq(organizationMembers.userId, userId),
            eq(organizationMembers.isActive, true),
          ),
        ),
    ));

  const service = {
    async add(organizationId: number, userId: number, role: string, withParents: boolean) {
      await requireIn(db, actor, organizationId, ADD);
      const org = await visibleOrg(db, actor, organizationId);
      // Ancestors the user already belongs to are skipped, but the organization itself must be new (000 §8 'user already exists').
      if ((await userAndMembership(organizationId, userId)).member) badRequest('Người dùng đã là thành viên của tổ chức');
      // Adding someone from another faculty (or an orphan) would open their record to this unit's officers:
      // the 403 names their units so the admin can ask for a transfer instead (issue 30 item 1).
      if (!(await addableUsers(db, actor, [userId])).has(userId)) {
        const from = await activeMemberships(db, userId);
        const units = from.filter((m) => !from.some((o) => o.id !== m.id && o.path.startsWith(m.path)));
        fail(403, TRANSFER_INSTEAD, {
          transfer: {
            userId,
            toOrganizationId: organizationId,
            fromOrganizations: units.map(({ id, name, code, type }) => ({ id, name, code, type })),
          },
        });
      }
      const ancestors = withParents ? await pathsOf(pathIds(org.path)) : new Map<number, string>();
      const ids = withParents
        ? pathIds(org.path).filter((id) => id === organizationId || mayAddIn(id, ancestors.get(id)!))
        : [organizationId];
      const added = await withTransaction(db, async (tx) => {
        const done = await joinAll(tx, ids, userId, (id) => (id === organizationId ? role : 'member'));
        await audit(tx, {
          actorId: actor.id,
          action: 'membership.add',
          entity: 'organization',
          entityId: organizationId,
          // The unit was just read and is being written under: no lookup of whether it still exists.
          organizationId,
          after: { userId, role, organizationIds: done },
          ip,
        });
        return done;
      });
      changed();
      return { message: 'Thêm thành viên thành công', added: added.length };
    },

    /** The organization's checks come first, so whether a code exists is told only to someone who may add here. */
    async addByCode(organizationId: number, code: string, role = 'member') {
      await requireIn(db, actor, organizationId, ADD);
      await visibleOrg(db, actor, organizationId);
      const u = await firstRow(db.select({ id: users.id }).from(users).where(eq(users.code, code.trim())));
      if (!u) notFound('Không tìm thấy người dùng');
      return service.add(organizationId, u!.id, role, true);
    },

    /** The levels this member can be removed from here, each naming the units they leave and stay in. */
    async removalOptions(organizationId: number, userId: number) {
      await requireIn(db, actor, organizationId, REMOVE);
      const org = await visibleOrg(db, actor, organizationId);
      const { recommended, options } = await removalPlan(db, actor, org.path, userId);
      return { recommended, options };
    },

    /**
     * Leaves `from` (this unit or a parent in the plan; default the recommended level) and every
     * unit beneath it. "safely" (000 §7) leaves only this unit, refusing while a unit beneath holds them.
     */
    async remove(organizationId: number, userId: number, safely: boolean, from?: number) {
      await requireIn(db, actor, organizationId, REMOVE);
      const org = await visibleOrg(db, actor, organizationId);
      if (!(await isMember(organizationId, userId))) notFound('Người dùng không phải thành viên của tổ chức');
      if (safely) {
        const inChild = (
          await allRows(
            db
              .select({ path: organizations.path })
              .from(organizationMembers)
              .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
              .where(and(eq(organizationMembers.userId, userId), eq(organizationMembers.isActive, true))),
          )
        ).some((r) => r.path !== org.path && r.path.startsWith(org.path));
        if (inChild) conflict('Người dùng vẫn là thành viên của tổ chức con; hãy xóa khỏi tổ chức con trước');
      }
      const plan = await removalPlan(db, actor, org.path, userId);
      const option = safely ? chosenOption(plan, organizationId) : chosenOption(plan, from);
      const leaves = safely ? option.leaves.filter((o) => o.id === organizationId) : option.leaves;
      const staysIn = safely ? plan.options.find((o) => o.organization.id === organizationId)!.staysIn : option.staysIn;
      await withTransaction(db, async (tx) => {
        await runQuery(
          tx.delete(organizationMembers).where(
            and(
              eq(organizationMembers.userId, userId),
              inArray(
                organizationMembers.organizationId,
                leaves.map((o) => o.id),
              ),
            ),
          ),
        );
        await audit(tx, {
          actorId: actor.id,
          action: 'membership.remove',
          entity: 'organization',
          entityId: organizationId,
          organizationId,
          before: { userId },
          after: { removed: leaves.map((o) => o.id), from: option.organization.id },
          ip,
        });
      });
      changed();
      const who = fullName(await user(userId));
      const message = `Đã xóa ${who} khỏi ${namesList(leaves)}` + (staysIn.length ? `; vẫn là thành viên của ${namesList(staysIn)}` : '');
      return { message, removed: leaves, staysIn };
    },

    /** Each member leaves this unit, everything beneath it and the parents the recommended level takes (removal.ts). */
    async bulkRemove(organizationId: number, userIds: number[]) {
      await requireIn(db, actor, organizationId, REMOVE);
      const org = await visibleOrg(db, actor, organizationId);
      const present = await filterInOrder([...new Set(userIds)], (u) => isMember(organizationId, u));
      const leaving = await mapInOrder(present, async (u) => ({
        userId: u,
        ids: chosenOption(await removalPlan(db, actor, org.path, u), undefined).leaves.map((o) => o.id),
      }));
      const removedMemberships = await withTransaction(db, async (tx) => {
        let n = 0;
        for (const l of leaving)
          n += (
            await runQuery(
              tx
                .delete(organizationMembers)
                .where(and(eq(organizationMembers.userId, l.userId), inArray(organizationMembers.organizationId, l.ids))),
            )
          ).changes;
        await audit(tx, {
          actorId: actor.id,
          action: 'membership.bulk_remove',
          entity: 'organization',
          entityId: organizationId,
          organizationId,
          before: { userIds },
          after: { removed: present.length, memberships: n },
          ip,
        });
        return n;
      });
      changed();
      const also = removedMemberships - present.length;
      return {
        message:
          `Đã xóa ${present.length} thành viên khỏi ${org.name}` +
          (also > 0 ? ` (cùng ${also} tư cách thành viên ở đơn vị trực thuộc hoặc cấp trên không còn đơn vị nào của họ)` : ''),
        removedCount: present.length,
      };
    },

    /**
     * PUT /users/:id/organizations: the user's memberships become the listed organizations plus
     * their parents; a removed organization stays when it is still a parent of a kept one.
     */
    async setUserOrganizations(userId: number, organizationIds: number[]) {
      // As on the users screen: a user the caller cannot reach answers 404, one they may see but not update 403.
      await user(userId);
      const reaches = async (code: string) => (await usersInScope(db, await userScope(db, actor, code), [userId])).has(userId);
      const mayUpdate = await reaches('users.update');
      if (!mayUpdate && !(await reaches('users.access'))) notFound('Không tìm thấy người dùng');
      if (!mayUpdate) forbidden();
      if (!actor.isSuperAdmin && isSuperAdmin(await loadRoleGrants(db, userId)))
        forbidden('Chỉ quản trị viên hệ thống mới được thay đổi tài khoản quản trị viên hệ thống');
      organizationIds = [...new Set(organizationIds)];
      const wanted = organizationIds.length
        ? await allRows(
            db
              .select({ id: organizations.id, path: organizations.path })
              .from(organizations)
              .where(inArray(organizations.id, organizationIds)),
          )
        : [];
      const unknown = organizationIds.filter((id) => !wanted.some((w) => w.id === id));
      if (unknown.length) badRequest(`Không tìm thấy tổ chức: ${unknown.join(', ')}`);
      const memberships = await allRows(
        db
          .select({ id: organizationMembers.organizationId, path: organizations.path })
          .from(organizationMembers)
          .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
          .where(and(eq(organizationMembers.userId, userId), eq(organizationMembers.isActive, true))),
      );
      const current = memberships.map((r) => r.id);
      // The caller's pickers list only organizations they can see: memberships elsewhere are left as they are.
      const v = await visibility(db, actor);
      const unseen = new Set(memberships.filter((m) => !isVisible(v, m)).map((m) => m.id));
      const requiredParents = new Set(wanted.flatMap((w) => pathIds(w.path)));
      const parentPaths = await pathsOf([...requiredParents]);
      // The organizations chosen, and of their parents only those the caller may add to.
      const toAdd = [...requiredParents].filter(
        (id) => !current.includes(id) && (organizationIds.includes(id) || mayAddIn(id, parentPaths.get(id)!)),
      );
      const dropped = current.filter((id) => !organizationIds.includes(id) && !unseen.has(id));
      const toRemove = dropped.filter((id) => !requiredParents.has(id));
      const keptParents = dropped.length - toRemove.length;
      // Parents joined implicitly follow the organization the caller chose, as with-parents does.
      for (const id of organizationIds.filter((i) => !current.includes(i))) await requireIn(db, actor, id, ADD);
      for (const id of toRemove) await requireIn(db, actor, id, REMOVE);
      await withTransaction(db, async (tx) => {
        await joinAll(tx, toAdd, userId, () => 'member');
        if (toRemove.length)
          await runQuery(
            tx
              .delete(organizationMembers)
              .where(and(eq(organizationMembers.userId, userId), inArray(organizationMembers.organizationId, toRemove))),
          );
        await audit(tx, {
          actorId: actor.id,
          action: 'membership.set',
          entity: 'user',
          entityId: userId,
          before: { organizationIds: current },
          after: { added: toAdd, removed: toRemove, keptParents },
          ip,
        });
      });
      changed();
      return { message: 'Cập nhật thành viên tổ chức thành công', added: toAdd.length, removed: toRemove.length, keptParents };
    },
  };
  return service;
}
