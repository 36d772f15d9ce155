import {
  assignmentPairs,
  effectivePermissions,
  hasPermission,
  type AssignmentPair,
  type AvailableRole,
  type GrantRolesResponse,
  type OrgContext,
  type RoleAssignmentLink,
  type RoleAssignmentRow,
} from '@doanhoi/shared';
import { asc, eq, inArray } from 'drizzle-orm';
import { revokeLostSuperAdmins } from '../access/revocation';
import { superAdminIds } from '../access/grants';
import { audit } from '../audit/writer';
import type { Actor, Deps } from '../lib/context';
import { badRequest, conflict, forbidden, notFound } from '../lib/errors';
import { orgContext } from '../access/organization-context';
import { userScope, usersInScope } from '../access/scope';
import { users } from '../db/tables/users';
import { grantRefusal, MANAGE_ROLES } from './access';
import {
  describeLinks,
  linkDetails,
  linkKey,
  organizationNames,
  rolesInfo,
  userLinks,
  type LinkRow,
  type RoleInfo,
} from './assignments.query';
import { activeCodesByRole } from './permissions';
import { roles, userRoles } from '../db/tables/roles';

const USER_NOT_FOUND = 'Không tìm thấy người dùng';
/** Who may see a user's role links: whoever reaches the user through one of these codes. */
const VISIBILITY_CODES = ['users.access', 'users.view_details', MANAGE_ROLES];

/**
 * A user's role links (000 §3 UserRole link) as one caller may change them: users.roles.manage in
 * each organization touched (globally for global links), and never a role with a permission the
 * caller lacks there (see access.ts grantRefusal). Writes are audited with the links before and after.
 */
export function roleAssignmentsService({ db }: Deps, actor: Actor, req: { ip: string | null }) {
  const caller = { actorId: actor.id, ip: req.ip };
  const contexts = new Map<number, OrgContext | null>();

  function ctxOf(organizationId: number | null): OrgContext | null {
    if (organizationId == null) return null;
    if (!contexts.has(organizationId)) contexts.set(organizationId, orgContext(db, organizationId));
    return contexts.get(organizationId)!;
  }

  /** Unknown users, and users the caller cannot reach, answer 404 alike (no existence leak). */
  function assertVisible(userId: number) {
    if (!db.select({ id: users.id }).from(users).where(eq(users.id, userId)).get()) notFound(USER_NOT_FOUND);
    if (actor.isSuperAdmin) return;
    const reached = VISIBILITY_CODES.some((code) => usersInScope(db, userScope(db, actor, code), [userId]).has(userId));
    if (!reached) notFound(USER_NOT_FOUND);
  }

  function loadRoles(ids: number[]): Map<number, RoleInfo> {
    const found = rolesInfo(db, ids);
    const unknown = [...new Set(ids)].filter((id) => !found.has(id));
    if (unknown.length) badRequest(`Vai trò không tồn tại: ${unknown.join(', ')}`);
    return found;
  }

  function loadOrganizations(requested: number[], alsoKnown: number[] = []): Map<number, string> {
    const names = organizationNames(db, [...requested, ...alsoKnown]);
    const unknown = [...new Set(requested)].filter((id) => !names.has(id));
    if (unknown.length) badRequest(`Tổ chức không tồn tại: ${unknown.join(', ')}`);
    return names;
  }

  /** 403 with what is missing, when the caller may not add (or remove) this link. */
  function assertMayChange(role: RoleInfo, organizationId: number | null, orgNames: Map<number, string>, adding: boolean) {
    const refusal = grantRefusal(actor, role.codes, ctxOf(organizationId));
    if (!refusal) return;
    const verb = adding ? 'cấp' : 'gỡ';
    const where = organizationId == null ? 'toàn hệ thống' : `trong tổ chức "${orgNames.get(organizationId) ?? organizationId}"`;
    if (refusal.reason === 'manage') forbidden(`Bạn không có quyền ${verb} vai trò ${where}`);
    else
      forbidden(
        `Không thể ${verb} vai trò "${role.displayName}" ${where}: vai trò có quyền bạn không có ở đó (${refusal.missing.join(', ')})`,
      );
  }

  function assertGrantable(role: RoleInfo) {
    if (!role.isActive) badRequest(`Vai trò "${role.displayName}" đang ngừng hoạt động, không thể cấp`);
  }

  return {
    /** With organizationId: the links that apply there (global ones, that organization's and its ancestors'). */
    listForUser(userId: number, organizationId?: number): RoleAssignmentLink[] {
      assertVisible(userId);
      if (organizationId === undefined) return linkDetails(db, userId);
      const ctx = ctxOf(organizationId);
      if (!ctx) notFound('Không tìm thấy tổ chức');
      return linkDetails(db, userId, [organizationId, ...ctx!.ancestorIds]);
    },

    /**
     * Active roles the caller could grant somewhere. An organization role's permissions are the
     * same in every organization beneath it that has no role of its own, so the contexts to try
     * are: global, and each organization where the caller holds a role.
     */
    availableRoles(): AvailableRole[] {
      const rows = db
        .select({
          id: roles.id,
          name: roles.name,
          displayName: roles.displayName,
          description: roles.description,
          isActive: roles.isActive,
          isSystemRole: roles.isSystemRole,
        })
        .from(roles)
        .where(eq(roles.isActive, true))
        .orderBy(asc(roles.name), asc(roles.id))
        .all();
      const codes = activeCodesByRole(
        db,
        rows.map((r) => r.id),
      );
      const held = (ctx: OrgContext | null) =>
        hasPermission(actor.roles, MANAGE_ROLES, ctx) ? new Set(effectivePermissions(actor.roles, ctx)) : null;
      const globalHeld = actor.isSuperAdmin ? null : held(null);
      const orgHeld: { organizationId: number; codes: Set<string> }[] = [];
      if (!actor.isSuperAdmin) {
        const orgIds = [
          ...new Set(actor.roles.filter((r) => r.isActive !== false && r.organizationId != null).map((r) => r.organizationId!)),
        ];
        for (const id of orgIds) {
          const ctx = ctxOf(id);
          const set = ctx && held(ctx);
          if (set) orgHeld.push({ organizationId: id, codes: set });
        }
      }
      const out: AvailableRole[] = [];
      for (const r of rows) {
        const roleCodes = codes.get(r.id)!;
        const fits = (set: Set<string>) => roleCodes.every((c) => set.has(c));
        const global = actor.isSuperAdmin || (!!globalHeld && fits(globalHeld));
        const organizationIds = global ? [] : orgHeld.filter((o) => fits(o.codes)).map((o) => o.organizationId);
        if (!global && organizationIds.length === 0) continue;
        out.push({ ...r, permissions: roleCodes.map((code) => ({ code })), grantableIn: { global, organizationIds } });
      }
      return out;
    },

    /** The user's links become exactly the rows' role × organization pairs; an empty list clears them. */
    replace(userId: number, rows: RoleAssignmentRow[]): GrantRolesResponse {
      assertVisible(userId);
      const pairs = assignmentPairs(rows);
      const existing = userLinks(db, userId);
      const roleMap = loadRoles([...pairs.map((p) => p.roleId), ...existing.map((l) => l.roleId)]);
      const orgNames = loadOrganizations(
        pairs.flatMap((p) => (p.organizationId == null ? [] : [p.organizationId])),
        existing.flatMap((l) => (l.organizationId == null ? [] : [l.organizationId])),
      );

      const byKey = new Map<string, LinkRow>();
      const duplicates: LinkRow[] = [];
      for (const l of existing) {
        const k = linkKey(l.roleId, l.organizationId);
        if (byKey.has(k)) duplicates.push(l);
        else byKey.set(k, l);
      }
      const wanted = new Set(pairs.map((p) => linkKey(p.roleId, p.organizationId)));
      const toInsert: AssignmentPair[] = [];
      const toReactivate: LinkRow[] = [];
      for (const p of pairs) {
        const link = byKey.get(linkKey(p.roleId, p.organizationId));
        if (!link) toInsert.push(p);
        else if (!link.isActive) toReactivate.push(link);
      }
      const toRemove = [...byKey.values()].filter((l) => !wanted.has(linkKey(l.roleId, l.organizationId)));

      for (const p of toInsert) {
        assertGrantable(roleMap.get(p.roleId)!);
        assertMayChange(roleMap.get(p.roleId)!, p.organizationId, orgNames, true);
      }
      for (const l of toReactivate) assertMayChange(roleMap.get(l.roleId)!, l.organizationId, orgNames, true);
      for (const l of toRemove) assertMayChange(roleMap.get(l.roleId)!, l.organizationId, orgNames, false);

      const added = toInsert.length + toReactivate.length;
      // A second copy of a kept link changes nothing the caller could not already do: dropped without a check.
      const removedIds = [...toRemove, ...duplicates].map((l) => l.id);
      if (added === 0 && removedIds.length === 0) {
        return { message: 'Vai trò của người dùng không thay đổi', added: 0, removed: 0, userRoles: linkDetails(db, userId) };
      }
      const supers = superAdminIds(db);
      db.transaction((tx) => {
        const before = describeLinks(tx, userId);
        if (removedIds.length) tx.delete(userRoles).where(inArray(userRoles.id, removedIds)).run();
        if (toReactivate.length) {
          tx.update(userRoles)
            .set({ isActive: true, grantedBy: actor.id })
            .where(
              inArray(
                userRoles.id,
                toReactivate.map((l) => l.id),
              ),
            )
            .run();
        }
        for (const p of toInsert)
          tx.insert(userRoles).values({ userId, roleId: p.roleId, organizationId: p.organizationId, grantedBy: actor.id }).run();
        audit(tx, { ...caller, action: 'user.roles.grant', entity: 'user', entityId: userId, before, after: describeLinks(tx, userId) });
      });
      // A super admin role taken away ends that user's sessions at once.
      revokeLostSuperAdmins(db, supers);
      return {
        message: pairs.length === 0 ? 'Đã gỡ toàn bộ vai trò của người dùng' : 'Đã cập nhật vai trò cho người dùng',
        added,
        removed: toRemove.length,
        userRoles: linkDetails(db, userId),
      };
    },

    /** Adds one link; the same role in the same organization twice is a conflict (an inactive copy is reactivated). */
    assign(userId: number, roleId: number, organizationId: number | null): { link: RoleAssignmentLink; created: boolean } {
      assertVisible(userId);
      const role = loadRoles([roleId]).get(roleId)!;
      const orgNames = loadOrganizations(organizationId == null ? [] : [organizationId]);
      const existing = userLinks(db, userId).find((l) => l.roleId === roleId && l.organizationId === organizationId);
      if (!existing) assertGrantable(role);
      assertMayChange(role, organizationId, orgNames, true);
      if (existing?.isActive) {
        const where = organizationId == null ? 'toàn hệ thống' : `trong tổ chức "${orgNames.get(organizationId)}"`;
        conflict(`Người dùng đã có vai trò "${role.displayName}" ${where}`);
      }
      const linkId = db.transaction((tx) => {
        const before = describeLinks(tx, userId);
        let id: number;
        if (existing) {
          tx.update(userRoles).set({ isActive: true, grantedBy: actor.id }).where(eq(userRoles.id, existing.id)).run();
          id = existing.id;
        } else {
          id = tx
            .insert(userRoles)
            .values({ userId, roleId, organizationId, grantedBy: actor.id })
            .returning({ id: userRoles.id })
            .get().id;
        }
        audit(tx, { ...caller, action: 'user.roles.assign', entity: 'user', entityId: userId, before, after: describeLinks(tx, userId) });
        return id;
      });
      return { link: linkDetails(db, userId).find((l) => l.id === linkId)!, created: !existing };
    },
  };
}
