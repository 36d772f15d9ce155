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
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';
import { someInOrder } from '../lib/in-order';

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

  async function ctxOf(organizationId: number | null): Promise<OrgContext | null> {
    if (organizationId == null) return null;
    if (!contexts.has(organizationId)) contexts.set(organizationId, await orgContext(db, organizationId));
    return contexts.get(organizationId)!;
  }

  /** Unknown users, and users the caller cannot reach, answer 404 alike (no existence leak). */
  async function assertVisible(userId: number) {
    if (!(await firstRow(db.select({ id: users.id }).from(users).where(eq(users.id, userId))))) notFound(USER_NOT_FOUND);
    if (actor.isSuperAdmin) return;
    const reached = await someInOrder(VISIBILITY_CODES, async (code) =>
      (await usersInScope(db, await userScope(db, actor, code), [userId])).has(userId),
    );
    if (!reached) notFound(USER_NOT_FOUND);
  }

  async function loadRoles(ids: number[]): Promise<Map<number, RoleInfo>> {
    const found = await rolesInfo(db, ids);
    const unknown = [...new Set(ids)].filter((id) => !found.has(id));
    if (unknown.length) badRequest(`Vai trò không tồn tại: ${unknown.join(', ')}`);
    return found;
  }

  async function loadOrganizations(requested: number[], alsoKnown: number[] = []): Promise<Map<number, string>> {
    const names = await organizationNames(db, [...requested, ...alsoKnown]);
    const unknown = [...new Set(requested)].filter((id) => !names.has(id));
    if (unknown.length) badRequest(`Tổ chức không tồn tại: ${unknown.join(', ')}`);
    return names;
  }

  /** 403 with what is missing, when the caller may not add (or remove) this link. */
  async function assertMayChange(role: RoleInfo, organizationId: number | null, orgNames: Map<number, string>, adding: boolean) {
    const refusal = grantRefusal(actor, role.codes, await ctxOf(organizationId));
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
    async listForUser(userId: number, organizationId?: number): Promise<RoleAssignmentLink[]> {
      await assertVisible(userId);
      if (organizationId === undefined) return linkDetails(db, userId);
      const ctx = await ctxOf(organizationId);
      if (!ctx) notFound('Không tìm thấy tổ chức');
      return linkDetails(db, userId, [organizationId, ...ctx!.ancestorIds]);
    },

    /**
     * Active roles the caller could grant somewhere. An organization role's permissions are the
     * same in every organization beneath it that has no role of its own, so the contexts to try
     * are: global, and each organization where the caller holds a role.
     */
    async availableRoles(): Promise<AvailableRole[]> {
      const rows = await allRows(
        db
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
          .orderBy(asc(roles.name), asc(roles.id)),
      );
      const codes = await activeCodesByRole(
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
          const ctx = await ctxOf(id);
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
    async replace(userId: number, rows: RoleAssignmentRow[]): Promise<GrantRolesResponse> {
      await assertVisible(userId);
      const pairs = assignmentPairs(rows);
      const existing = await userLinks(db, userId);
      const roleMap = await loadRoles([...pairs.map((p) => p.roleId), ...existing.map((l) => l.roleId)]);
      const orgNames = await loadOrganizations(
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
        await assertMayChange(roleMap.get(p.roleId)!, p.organizationId, orgNames, true);
      }
      for (const l of toReactivate) await assertMayChange(roleMap.get(l.roleId)!, l.organizationId, orgNames, true);
      for (const l of toRemove) await assertMayChange(roleMap.get(l.roleId)!, l.organizationId, orgNames, false);

      const added = toInsert.length + toReactivate.length;
      // A second copy of a kept link changes nothing the caller could not already do: dropped without a check.
      const removedIds = [...toRemove, ...duplicates].map((l) => l.id);
      if (added === 0 && removedIds.length === 0) {
        return { message: 'Vai trò của người dùng không thay đổi', added: 0, removed: 0, userRoles: await linkDetails(db, userId) };
      }
      const supers = await superAdminIds(db);
      await withTransaction(db, async (tx) => {
        const before = await describeLinks(tx, userId);
        if (removedIds.length) await runQuery(tx.delete(userRoles).where(inArray(userRoles.id, removedIds)));
        if (toReactivate.length) {
          await runQuery(
            tx
              .update(userRoles)
              .set({ isActive: true, grantedBy: actor.id })
              .where(
                inArray(
                  userRoles.id,
                  toReactivate.map((l) => l.id),
                ),
              ),
          );
        }
        for (const p of toInsert)
          await runQuery(tx.insert(userRoles).values({ userId, roleId: p.roleId, organizationId: p.organizationId, grantedBy: actor.id }));
        await audit(tx, {
          ...caller,
          action: 'user.roles.grant',
          entity: 'user',
          entityId: userId,
          before,
          after: await describeLinks(tx, userId),
        });
      });
      // A super admin role taken away ends that user's sessions at once.
      await revokeLostSuperAdmins(db, supers);
      return {
        message: pairs.length === 0 ? 'Đã gỡ toàn bộ vai trò của người dùng' : 'Đã cập nhật vai trò cho người dùng',
        added,
        removed: toRemove.length,
        userRoles: await linkDetails(db, userId),
      };
    },

    /** Adds one link; the same role in the same organization twice is a conflict (an inactive copy is reactivated). */
    async assign(userId: number, roleId: number, organizationId: number | null): Promise<{ link: RoleAssignmentLink; created: boolean }> {
      await assertVisible(userId);
      const role = (await loadRoles([roleId])).get(roleId)!;
      const orgNames = await loadOrganizations(organizationId == null ? [] : [organizationId]);
      const existing = (await userLinks(db, userId)).find((l) => l.roleId === roleId && l.organizationId === organizationId);
      if (!existing) assertGrantable(role);
      await assertMayChange(role, organizationId, orgNames, true);
      if (existing?.isActive) {
        const where = organizationId == null ? 'toàn hệ thống' : `trong tổ chức "${orgNames.get(organizationId)}"`;
        conflict(`Người dùng đã có vai trò "${role.displayName}" ${where}`);
      }
      const linkId = await withTransaction(db, async (tx) => {
        const before = await describeLinks(tx, userId);
        let id: number;
        if (existing) {
          await runQuery(tx.update(userRoles).set({ isActive: true, grantedBy: actor.id }).where(eq(userRoles.id, existing.id)));
          id = existing.id;
        } else {
          id = (
            await firstRow(
              tx.insert(userRoles).values({ userId, roleId, organizationId, grantedBy: actor.id }).returning({ id: userRoles.id }),
            )
          ).id;
        }
        await audit(tx, {
          ...caller,
          action: 'user.roles.assign',
          entity: 'user',
          entityId: userId,
          before,
          after: await describeLinks(tx, userId),
        });
        return id;
      });
      return { link: (await linkDetails(db, userId)).find((l) => l.id === linkId)!, created: !existing };
    },
  };
}
