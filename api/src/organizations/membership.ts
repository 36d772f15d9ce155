/**
 * Organization memberships (000 §4): adding joins the parents too, but only those where the caller
 * may add members (never above their reach); removal keeps parents of kept organizations.
 */
import { hasPermission, isSuperAdmin } from '@doanhoi/shared';
import { and, eq, inArray } from 'drizzle-orm';
import { audit } from '../lib/audit';
import type { Tx } from '../db/client';
import type { Actor, Deps } from '../lib/context';
import { badRequest, conflict, forbidden, notFound } from '../lib/errors';
import { loadRoleGrants } from '../roles/grants';
import { userScope, usersInScope } from '../users/scope';
import { users } from '../users/schema';
import { isVisible, requireIn, visibility, visibleOrg } from './access';
import { pathIds } from './context';
import { organizationMembers, organizations } from './schema';

const ADD = ['organizations.add_member', 'organizations.manage_members'];
const REMOVE = ['organizations.remove_member', 'organizations.manage_members'];

/** Adds (or reactivates) a membership; returns whether anything changed. */
function join(tx: Tx, organizationId: number, userId: number, role: string): boolean {
  const existing = tx
    .select()
    .from(organizationMembers)
    .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)))
    .get();
  if (existing?.isActive) return false;
  if (existing) tx.update(organizationMembers).set({ isActive: true, role, joinedAt: new Date() }).where(eq(organizationMembers.id, existing.id)).run();
  else tx.insert(organizationMembers).values({ organizationId, userId, role }).run();
  return true;
}

export function membershipService({ db }: Deps, actor: Actor, ip: string | null) {
  const changed = () => {
  };
  const user = (id: number) => {
    const u = db.select({ id: users.id, code: users.code }).from(users).where(eq(users.id, id)).get();
    if (!u) notFound('Không tìm thấy người dùng');
    return u!;
  };
  /** May the caller add members here? Parents joined "with parents" are limited to these (never above the caller's reach). */
  const mayAddIn = (organizationId: number, path: string) => {
    const ctx = { organizationId, ancestorIds: pathIds(path).filter((id) => id !== organizationId) };
    return ADD.some((code) => hasPermission(actor.roles, code, ctx));
  };
  const pathsOf = (ids: number[]) =>
    new Map(ids.length ? db.select({ id: organizations.id, path: organizations.path }).from(organizations).where(inArray(organizations.id, ids)).all().map((o) => [o.id, o.path]) : []);
  const isMember = (organizationId: number, userId: number) =>
    !!db
      .select({ id: organizationMembers.id })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId), eq(organizationMembers.isActive, true)))
      .get();

  const service = {
    add(organizationId: number, userId: number, role: string, withParents: boolean) {
      requireIn(db, actor, organizationId, ADD);
      const org = visibleOrg(db, actor, organizationId);
      user(userId);
      // Ancestors the user already belongs to are skipped, but the organization itself must be new (000 §8 'user already exists').
      if (isMember(organizationId, userId)) badRequest('Người dùng đã là thành viên của tổ chức');
      const ancestors = withParents ? pathsOf(pathIds(org.path)) : new Map<number, string>();
      const ids = withParents ? pathIds(org.path).filter((id) => id === organizationId || mayAddIn(id, ancestors.get(id)!)) : [organizationId];
      const added = db.transaction((tx) => {
        const done = ids.filter((id) => join(tx, id, userId, id === organizationId ? role : 'member'));
        audit(tx, { actorId: actor.id, action: 'membership.add', entity: 'organization', entityId: organizationId, after: { userId, role, organizationIds: done }, ip });
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

    remove(organizationId: number, userId: number, safely: boolean) {
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
      db.transaction((tx) => {
        tx.delete(organizationMembers).where(and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId))).run();
        audit(tx, { actorId: actor.id, action: 'membership.remove', entity: 'organization', entityId: organizationId, before: { userId }, ip });
      });
      changed();
      return { message: 'Đã xóa thành viên khỏi tổ chức' };
    },

    bulkRemove(organizationId: number, userIds: number[]) {
      requireIn(db, actor, organizationId, REMOVE);
      visibleOrg(db, actor, organizationId);
      const removedCount = db.transaction((tx) => {
        const r = tx.delete(organizationMembers).where(and(eq(organizationMembers.organizationId, organizationId), inArray(organizationMembers.userId, userIds))).run();
        audit(tx, { actorId: actor.id, action: 'membership.bulk_remove', entity: 'organization', entityId: organizationId, before: { userIds }, after: { removed: r.changes }, ip });
        return r.changes;
      });
      changed();
      return { message: `Đã xóa ${removedCount} thành viên`, removedCount };
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
      if (!actor.isSuperAdmin && isSuperAdmin(loadRoleGrants(db, userId))) forbidden('Chỉ quản trị viên hệ thống mới được thay đổi tài khoản quản trị viên hệ thống');
      organizationIds = [...new Set(organizationIds)];
      const wanted = organizationIds.length
        ? db.select({ id: organizations.id, path: organizations.path }).from(organizations).where(inArray(organizations.id, organizationIds)).all()
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
      const toAdd = [...requiredParents].filter((id) => !current.includes(id) && (organizationIds.includes(id) || mayAddIn(id, parentPaths.get(id)!)));
      const dropped = current.filter((id) => !organizationIds.includes(id) && !unseen.has(id));
      const toRemove = dropped.filter((id) => !requiredParents.has(id));
      const keptParents = dropped.length - toRemove.length;
      // Parents joined implicitly follow the organization the caller chose, as with-parents does.
      for (const id of organizationIds.filter((i) => !current.includes(i))) requireIn(db, actor, id, ADD);
      for (const id of toRemove) requireIn(db, actor, id, REMOVE);
      db.transaction((tx) => {
        for (const id of toAdd) join(tx, id, userId, 'member');
        if (toRemove.length) tx.delete(organizationMembers).where(and(eq(organizationMembers.userId, userId), inArray(organizationMembers.organizationId, toRemove))).run();
        audit(tx, { actorId: actor.id, action: 'membership.set', entity: 'user', entityId: userId, before: { organizationIds: current }, after: { added: toAdd, removed: toRemove, keptParents }, ip });
      });
      changed();
      return { message: 'Cập nhật thành viên tổ chức thành công', added: toAdd.length, removed: toRemove.length, keptParents };
    },
  };
  return service;
}
