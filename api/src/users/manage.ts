/**
 * Who may take control of whose account (docs/decisions.md, "manage whom").
 *
 * Reaching a user (access/scope.ts) only needs one active membership inside the caller's tree (and
 * only someone already in reach can be added to a unit: access/reach.ts). So the changes that hand over
 * or rewrite the account itself — e-mail, password, active flag, code, names, user type,
 * deletion — need more: the right in EVERY
 * organization the user actively belongs to, and over EVERY role link they hold (in its
 * organization, globally for a global link, together with every permission of that role there, as
 * granting it would). Adding someone to my unit then never gives me more power over their account.
 */
import { hasPermission, isSuperAdmin, type OrgContext, type RoleGrant } from '@doanhoi/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Actor } from '../lib/context';
import { forbidden } from '../lib/errors';
import { pathIds } from '../access/organization-context';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { permissions, rolePermissions, roles, userRoles } from '../db/tables/roles';
import { allRows } from '../db/engine';

export type ManageRefusal = 'super_admin' | 'outside';

const CHUNK = 500;

function chunks<T>(xs: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += CHUNK) out.push(xs.slice(i, i + CHUNK));
  return out;
}

const contextOf = (organizationId: number, path: string): OrgContext => ({
  organizationId,
  ancestorIds: pathIds(path).filter((id) => id !== organizationId),
});

/** Active role links of these users, with their role's active permission codes. */
async function linksOf(db: Db, ids: number[]) {
  const byLink = new Map<number, RoleGrant & { userId: number }>();
  for (const chunk of chunks(ids)) {
    const rows = await allRows(
      db
        .select({
          linkId: userRoles.id,
          userId: userRoles.userId,
          organizationId: userRoles.organizationId,
          name: roles.name,
          code: permissions.code,
          permActive: permissions.isActive,
        })
        .from(userRoles)
        .innerJoin(roles, eq(roles.id, userRoles.roleId))
        .leftJoin(rolePermissions, eq(rolePermissions.roleId, roles.id))
        .leftJoin(permissions, eq(permissions.id, rolePermissions.permissionId))
        // A link to an inactive role still counts: the role may be switched on again.
        .where(and(inArray(userRoles.userId, chunk), eq(userRoles.isActive, true))),
    );
    for (const r of rows) {
      let g = byLink.get(r.linkId);
      if (!g) byLink.set(r.linkId, (g = { userId: r.userId, name: r.name, organizationId: r.organizationId, permissions: [] }));
      if (r.code && r.permActive) (g.permissions as string[]).push(r.code);
    }
  }
  return [...byLink.values()];
}

/**
 * The users among `ids` whose account this caller may NOT take control of with `code`
 * (users.update for e-mail, password and active flag; users.delete for deletion), and why.
 */
export async function manageRefusals(
  db: Db,
  actor: Actor,
  ids: number[],
  code: 'users.update' | 'users.delete',
): Promise<Map<number, ManageRefusal>> {
  const out = new Map<number, ManageRefusal>();
  const unique = [...new Set(ids)];
  if (actor.isSuperAdmin || unique.length === 0) return out;
  const held = (ctx: OrgContext | null) => hasPermission(actor.roles, code, ctx);

  for (const chunk of chunks(unique)) {
    const rows = await allRows(
      db
        .select({ userId: organizationMembers.userId, organizationId: organizationMembers.organizationId, path: organizations.path })
        .from(organizationMembers)
        .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
        .where(and(inArray(organizationMembers.userId, chunk), eq(organizationMembers.isActive, true))),
    );
    for (const m of rows) if (!held(contextOf(m.organizationId, m.path))) out.set(m.userId, 'outside');
  }

  const links = await linksOf(db, unique);
  const orgIds = [...new Set(links.flatMap((l) => (l.organizationId == null ? [] : [l.organizationId])))];
  const paths = new Map<number, string>();
  for (const chunk of chunks(orgIds)) {
    for (const o of await allRows(
      db.select({ id: organizations.id, path: organizations.path }).from(organizations).where(inArray(organizations.id, chunk)),
    ))
      paths.set(o.id, o.path);
  }
  const byUser = new Map<number, RoleGrant[]>();
  for (const l of links) byUser.set(l.userId, [...(byUser.get(l.userId) ?? []), l]);
  for (const [userId, grants] of byUser) {
    if (isSuperAdmin(grants)) {
      out.set(userId, 'super_admin');
      continue;
    }
    for (const g of grants) {
      const ctx = g.organizationId == null ? null : contextOf(g.organizationId, paths.get(g.organizationId) ?? `/${g.organizationId}/`);
      if (!held(ctx) || g.permissions.some((p) => !hasPermission(actor.roles, p, ctx))) out.set(userId, 'outside');
    }
  }
  return out;
}

/** 403 unless the caller may take control of every one of these accounts (see manageRefusals). */
export async function assertManageable(db: Db, actor: Actor, ids: number[], code: 'users.update' | 'users.delete'): Promise<void> {
  const refusals = [...(await manageRefusals(db, actor, ids, code)).values()];
  if (refusals.includes('super_admin')) forbidden('Chỉ quản trị viên hệ thống mới được thay đổi tài khoản quản trị viên hệ thống');
  if (refusals.length === 0) return;
  const what = code === 'users.delete' ? 'xóa' : 'đổi mã, họ tên, loại người dùng, email, mật khẩu hoặc trạng thái kích hoạt của';
  const whom = ids.length > 1 ? 'một số người dùng đã chọn' : 'người dùng này';
  forbidden(`Bạn không thể ${what} ${whom}: người dùng còn thuộc tổ chức hoặc giữ vai trò nằm ngoài phạm vi quản lý của bạn`);
}
