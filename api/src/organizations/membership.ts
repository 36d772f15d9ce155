/**
 * Organization memberships (000 §4): adding joins the parents too, but only those where the caller
 * may add members (never above their reach), and only someone already within that reach
 * (access/reach.ts); removal leaves a level and everything beneath it (removal.ts).
 */
import { fullName, hasPermission, isSuperAdmin } from '@doanhoi/shared';
import { and, eq, inArray } from 'drizzle-orm';
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
import { activeMemberships } from './membership-end';
import { chosenOption, namesList, REMOVE_MEMBER_CODES as REMOVE, removalPlan } from './removal';
import { organizationMembers, organizations } from '../db/tables/organizations';

const ADD = ADD_MEMBER_CODES;
const TRANSFER_INSTEAD =
  'Người dùng này đang sinh hoạt ở đơn vị ngoài phạm vi quản lý của bạn nên không thể thêm trực tiếp. Hãy gửi yêu cầu chuyển sinh hoạt để đơn vị hiện tại của họ xem xét';

/** Adds (or reactivates, clearing an earlier ending) a membership; returns whether anything changed. */
export function join(tx: Tx, organizationId: number, userId: number, role: string, joinedAt = new Date()): boolean {
  const existing = tx
    .select()
    .from(organizationMembers)
    .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)))
    .get();
  if (existing?.isActive) return false;
  if (existing)
    tx.update(organizationMembers)
      .set({ isActive: true, role, joinedAt, endedAt: null, endReason: null, endNote: null })
      .where(eq(organizationMembers.id, existing.id))
      .run();
  else tx.insert(organizationMembers).values({ organizationId, userId, role, joinedAt }).run();
  return true;
}

export function membershipService({ db }: Deps, actor: Actor, ip: string | null) {
  const changed = () => {};
  const user = (id: number) => {
    const u = db
      .select({ id: users.id, code: users.code, familyName: users.familyName, givenName: users.givenName })
      .from(users)
      .where(eq(users.id, id))
      .get();
    if (!u) notFound('Không tìm thấy người dùng');
    return u!;
  };
  /** May the caller add members here? Parents joined "with parents" are limited to these (never above the caller's reach). */
  const mayAddIn = (organizationId: number, path: string) => {
    const ctx = { organizationId, ancestorIds: pathIds(path).filter((id) => id !== organizationId) };
    return ADD.some((code) => hasPermission(actor.roles, code, ctx));
  };
  const pathsOf = (ids: number[]) =>
    new Map(
      ids.length
        ? db
            .select({ id: organizations.id, path: organizations.path })
            .from(organizations)
            .where(inArray(organizations.id, ids))
            .all()
            .map((o) => [o.id, o.path])
        : [],
    );
  const isMember = (organizationId: number, userId: number) =>
    !!db
      .select({ id: organizationMembers.id })
      .from(organizationMembers)
      .where(
        and(
          eq(organizationMembers.organizationId, organizationId),
          eq(organizationMembers.userId, userId),
          eq(organizationMembers.isActive, true),
        ),
      )
      .get();

  const service = {
    add(organizationId: number, userId: number, role: string, withParents: boolean) {
      requireIn(db, actor, organizationId, ADD);
      const org = visibleOrg(db, actor, organizationId);
      user(userId);
      // Ancestors the user already belongs to are skipped, but the organization itself must be new (000 §8 'user already exists').
      if (isMember(organizationId, userId)) badRequest('Người dùng đã là thành viên của tổ chức');
      // Adding someone from another faculty (or an orphan) would open their record to this unit's officers:
      // the 403 names their units so the admin can ask for a transfer instead (issue 30 item 1).
      if (!addableUsers(db, actor, [userId]).has(userId)) {
        const from = activeMemberships(db, userId);
        const units = from.filter((m) => !from.some((o) => o.id !== m.id && o.path.startsWith(m.path)));
        fail(403, TRANSFER_INSTEAD, {
          transfer: {
            userId,
            toOrganizationId: organizationId,
            fromOrganizations: units.map(({ id, name, code, type }) => ({ id, name, code, type })),
          },
        });
      }
      const ancestors = withParents ? pathsOf(pathIds(org.path)) : new Map<number, string>();
      const ids = withParents
        ? pathIds(org.path).filter((id) => id === organizationId || mayAddIn(id, ancestors.get(id)!))
        : [organizationId];
      const added = db.transaction((tx) => {
        const done = ids.filter((id) => join(tx, id, userId, id === organizationId ? role : 'member'));
        audit(tx, {
          actorId: actor.id,
          action: 'membership.add',
          entity: 'organization',
          entityId: organizationId,
          after: { userId, role, organizationIds: done },
          ip,
        });
        return done;
      });
      changed();
      return { message: 'Thêm thành viên thành công', added: added.length };
    },

    /** The organization's checks come first, so whether a code exists is told only to someone who may add here. */
    addByCode(organizationId: number, code: string, role = 'member') {
      requireIn(db, actor, organizationId, ADD);
      visibleOrg(db, actor, organizationId);
      const u = db.select({ id: users.id }).from(users).where(eq(users.code, code.trim())).get();
      if (!u) notFound('Không tìm thấy người dùng');
      return service.add(organizationId, u!.id, role, true);
    },

    /** The levels this member can be removed from here, each naming the units they leave and stay in. */
    removalOptions(organizationId: number, userId: number) {
      requireIn(db, actor, organizationId, REMOVE);
      const org = visibleOrg(db, actor, organizationId);
      const { recommended, options } = removalPlan(db, actor, org.path, userId);
      return { recommended, options };
    },

    /**
     * Leaves `from` (this unit or a parent in the plan; default the recommended level) and every
     * unit beneath it. "safely" (000 §7) leaves only this unit, refusing while a unit beneath holds them.
     */
    remove(organizationId: number, userId: number, safely: boolean, from?: number) {
      requireIn(db, actor, organizationId, REMOVE);
      const org = visibleOrg(db, actor, organizationId);
      if (!isMember(organizationId, userId)) notFound('Người dùng không phải thành viên của tổ chức');
      if (safely) {
        const inChild = db
          .select({ path: organizations.path })
          .from(organizationMembers)
          .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
          .where(and(eq(organizationMembers.userId, userId), eq(organizationMembers.isActive, true)))
          .all()
          .some((r) => r.path !== org.path && r.path.startsWith(org.path));
        if (inChild) conflict('Người dùng vẫn là thành viên của tổ chức con; hãy xóa khỏi tổ chức con trước');
      }
      const plan = removalPlan(db, actor, org.path, userId);
      const option = safely ? chosenOption(plan, organizationId) : chosenOption(plan, from);
      const leaves = safely ? option.leaves.filter((o) => o.id === organizationId) : option.leaves;
      const staysIn = safely ? plan.options.find((o) => o.organization.id === organizationId)!.staysIn : option.staysIn;
      db.transaction((tx) => {
        tx.delete(organizationMembers)
          .where(
            and(
              eq(organizationMembers.userId, userId),
              inArray(
                organizationMembers.organizationId,
                leaves.map((o) => o.id),
              ),
            ),
          )
          .run();
        audit(tx, {
          actorId: actor.id,
          action: 'membership.remove',
          entity: 'organization',
          entityId: organizationId,
          before: { userId },
          after: { removed: leaves.map((o) => o.id), from: option.organization.id },
          ip,
        });
      });
      changed();
      const who = fullName(user(userId));
      const message = `Đã xóa ${who} khỏi ${namesList(leaves)}` + (staysIn.length ? `; vẫn là thành viên của ${namesList(staysIn)}` : '');
      return { message, removed: leaves, staysIn };
    },

    /** Each member leaves this unit, everything beneath it and the parents the recommended level takes (removal.ts). */
    bulkRemove(organizationId: number, userIds: number[]) {
      requireIn(db, actor, organizationId, REMOVE);
      const org = visibleOrg(db, actor, organizationId);
      const present = [...new Set(userIds)].filter((u) => isMember(organizationId, u));
      const leaving = present.map((u) => ({
        userId: u,
        ids: chosenOption(removalPlan(db, actor, org.path, u), undefined).leaves.map((o) => o.id),
      }));
      const removedMemberships = db.transaction((tx) => {
        let n = 0;
        for (const l of leaving)
          n += tx
            .delete(organizationMembers)
            .where(and(eq(organizationMembers.userId, l.userId), inArray(organizationMembers.organizationId, l.ids)))
            .run().changes;
        audit(tx, {
          actorId: actor.id,
          action: 'membership.bulk_remove',
          entity: 'organization',
          entityId: organizationId,
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
    setUserOrganizations(userId: number, organizationIds: number[]) {
      // As on the users screen: a user the caller cannot reach answers 404, one they may see but not update 403.
      user(userId);
      const reaches = (code: string) => usersInScope(db, userScope(db, actor, code), [userId]).has(userId);
      const mayUpdate = reaches('users.update');
      if (!mayUpdate && !reaches('users.access')) notFound('Không tìm thấy người dùng');
      if (!mayUpdate) forbidden();
      if (!actor.isSuperAdmin && isSuperAdmin(loadRoleGrants(db, userId)))
        forbidden('Chỉ quản trị viên hệ thống mới được thay đổi tài khoản quản trị viên hệ thống');
      organizationIds = [...new Set(organizationIds)];
      const wanted = organizationIds.length
        ? db
            .select({ id: organizations.id, path: organizations.path })
            .from(organizations)
            .where(inArray(organizations.id, organizationIds))
            .all()
        : [];
      const unknown = organizationIds.filter((id) => !wanted.some((w) => w.id === id));
      if (unknown.length) badRequest(`Không tìm thấy tổ chức: ${unknown.join(', ')}`);
      const memberships = db
        .select({ id: organizationMembers.organizationId, path: organizations.path })
        .from(organizationMembers)
        .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
        .where(and(eq(organizationMembers.userId, userId), eq(organizationMembers.isActive, true)))
        .all();
      const current = memberships.map((r) => r.id);
      // The caller's pickers list only organizations they can see: memberships elsewhere are left as they are.
      const v = visibility(db, actor);
      const unseen = new Set(memberships.filter((m) => !isVisible(v, m)).map((m) => m.id));
      const requiredParents = new Set(wanted.flatMap((w) => pathIds(w.path)));
      const parentPaths = pathsOf([...requiredParents]);
      // The organizations chosen, and of their parents only those the caller may add to.
      const toAdd = [...requiredParents].filter(
        (id) => !current.includes(id) && (organizationIds.includes(id) || mayAddIn(id, parentPaths.get(id)!)),
      );
      const dropped = current.filter((id) => !organizationIds.includes(id) && !unseen.has(id));
      const toRemove = dropped.filter((id) => !requiredParents.has(id));
      const keptParents = dropped.length - toRemove.length;
      // Parents joined implicitly follow the organization the caller chose, as with-parents does.
      for (const id of organizationIds.filter((i) => !current.includes(i))) requireIn(db, actor, id, ADD);
      for (const id of toRemove) requireIn(db, actor, id, REMOVE);
      db.transaction((tx) => {
        for (const id of toAdd) join(tx, id, userId, 'member');
        if (toRemove.length)
          tx.delete(organizationMembers)
            .where(and(eq(organizationMembers.userId, userId), inArray(organizationMembers.organizationId, toRemove)))
            .run();
        audit(tx, {
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
