import type { RoleAssignmentLink } from '@doanhoi/shared';
import { and, asc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { organizations } from '../db/tables/organizations';
import { activeCodesByRole } from './permissions';
import { roles, userRoles } from '../db/tables/roles';
import { allRows } from '../db/engine';

type Reader = Pick<Db, 'select'>;

export interface LinkRow {
  id: number;
  roleId: number;
  organizationId: number | null;
  isActive: boolean;
}

export interface RoleInfo {
  id: number;
  name: string;
  displayName: string;
  isActive: boolean;
  codes: string[];
}

/** Identity of a link: the same role in the same organization (null = global) is one assignment. */
export const linkKey = (roleId: number, organizationId: number | null) => `${roleId}:${organizationId ?? 'global'}`;

export async function userLinks(db: Reader, userId: number): Promise<LinkRow[]> {
  return await allRows(
    db
      .select({ id: userRoles.id, roleId: userRoles.roleId, organizationId: userRoles.organizationId, isActive: userRoles.isActive })
      .from(userRoles)
      .where(eq(userRoles.userId, userId))
      .orderBy(asc(userRoles.id)),
  );
}

/** The audit log's picture of a user's links (role names, so it reads without joins later). */
export async function describeLinks(db: Reader, userId: number) {
  return await allRows(
    db
      .select({
        id: userRoles.id,
        roleId: userRoles.roleId,
        role: roles.name,
        organizationId: userRoles.organizationId,
        isActive: userRoles.isActive,
      })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(userRoles.userId, userId))
      .orderBy(asc(userRoles.id)),
  );
}

/** Roles by id with their active permission codes (two queries). */
export async function rolesInfo(db: Reader, ids: number[]): Promise<Map<number, RoleInfo>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await allRows(
    db
      .select({ id: roles.id, name: roles.name, displayName: roles.displayName, isActive: roles.isActive })
      .from(roles)
      .where(inArray(roles.id, unique)),
  );
  const codes = await activeCodesByRole(
    db,
    rows.map((r) => r.id),
  );
  return new Map(rows.map((r) => [r.id, { ...r, codes: codes.get(r.id)! }]));
}

/** id → name of these organizations (unknown ids are absent). */
export async function organizationNames(db: Reader, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await allRows(
    db.select({ id: organizations.id, name: organizations.name }).from(organizations).where(inArray(organizations.id, unique)),
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * A user's links with role, permissions and organization, for the role dialogs. With
 * `organizationIds`, only global links and links in those organizations.
 */
export async function linkDetails(db: Reader, userId: number, organizationIds?: number[]): Promise<RoleAssignmentLink[]> {
  const rows = await allRows(
    db
      .select({
        id: userRoles.id,
        roleId: userRoles.roleId,
        organizationId: userRoles.organizationId,
        isActive: userRoles.isActive,
        role: { id: roles.id, name: roles.name, displayName: roles.displayName, description: roles.description, isActive: roles.isActive },
        orgName: organizations.name,
      })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .leftJoin(organizations, eq(organizations.id, userRoles.organizationId))
      .where(
        and(
          eq(userRoles.userId, userId),
          organizationIds ? or(isNull(userRoles.organizationId), inArray(userRoles.organizationId, organizationIds)) : undefined,
        ),
      )
      .orderBy(asc(userRoles.id)),
  );
  const codes = await activeCodesByRole(db, [...new Set(rows.map((r) => r.roleId))]);
  return rows.map((r) => ({
    id: r.id,
    roleId: r.roleId,
    role: { ...r.role, permissions: codes.get(r.roleId)!.map((code) => ({ code })) },
    organizationId: r.organizationId,
    organization: r.organizationId != null && r.orgName != null ? { id: r.organizationId, name: r.orgName } : null,
    isActive: r.isActive,
  }));
}
