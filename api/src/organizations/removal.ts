/**
 * Removing a member (issue 25 item 11, 000 §4). Joining a unit joins its parents, so leaving a
 * unit is offered per level: the unit itself or one of its parents the member belongs to, as far
 * up as the caller may remove members. Leaving a level leaves it and every unit beneath it (a
 * member of a chi đoàn outside its faculty would still count there and keep the faculty's officers'
 * reach). The recommended level follows the 000 §4 rule: the unit, and each parent that is no
 * longer the parent of another of the member's units.
 */
import { hasPermission, type MemberRemovalOption, type MemberRemovalPlan, type OrganizationRef } from '@doanhoi/shared';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Actor } from '../lib/context';
import { badRequest, notFound } from '../lib/errors';
import { pathIds } from '../access/organization-context';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { allRows } from '../db/engine';

export const REMOVE_MEMBER_CODES = ['organizations.remove_member', 'organizations.manage_members'];

export interface Membership extends OrganizationRef {
  path: string;
}

const ref = (m: Membership): OrganizationRef => ({ id: m.id, name: m.name, code: m.code, type: m.type });
/** Deepest first: the member reads the unit, then its parents. */
const deepestFirst = (a: Membership, b: Membership) => b.path.length - a.path.length || a.name.localeCompare(b.name, 'vi');

/** The units the user is an active member of, with their paths. */
export async function activeMemberships(db: Pick<Db, 'select'>, userId: number): Promise<Membership[]> {
  return await allRows(
    db
      .select({
        id: organizations.id,
        name: organizations.name,
        code: organizations.code,
        type: organizations.type,
        path: organizations.path,
      })
      .from(organizationMembers)
      .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
      .where(and(eq(organizationMembers.userId, userId), eq(organizationMembers.isActive, true))),
  );
}

/** The levels the caller may remove this member from, starting at the unit (`unitPath`), and the recommended one. */
export async function removalPlan(
  db: Db,
  actor: Actor,
  unitPath: string,
  userId: number,
): Promise<MemberRemovalPlan & { paths: Map<number, string> }> {
  const chain = pathIds(unitPath);
  const unitId = chain.at(-1)!;
  const memberships = await activeMemberships(db, userId);
  const byId = new Map(memberships.map((m) => [m.id, m]));
  if (!byId.has(unitId)) notFound('Người dùng không phải thành viên của tổ chức');
  const options: MemberRemovalOption[] = [];
  const paths = new Map<number, string>();
  let recommended = unitId;
  let clean = true;
  for (let i = chain.length - 1; i >= 0; i--) {
    const id = chain[i]!;
    // A grant reaches down, never up: where the caller may not remove, no level above is theirs either.
    const ctx = { organizationId: id, ancestorIds: chain.slice(0, i) };
    if (!REMOVE_MEMBER_CODES.some((code) => hasPermission(actor.roles, code, ctx))) break;
    const level = byId.get(id);
    if (!level) continue;
    const leaves = memberships.filter((m) => m.path.startsWith(level.path)).sort(deepestFirst);
    const staysIn = memberships.filter((m) => level.path.startsWith(m.path) && m.id !== id).sort(deepestFirst);
    options.push({ organization: ref(level), leaves: leaves.map(ref), staysIn: staysIn.map(ref) });
    paths.set(id, level.path);
    // Still the 000 §4 rule while everything left behind is this unit, its units or the chain above it.
    clean &&= leaves.every((m) => m.path.startsWith(unitPath) || unitPath.startsWith(m.path));
    if (clean) recommended = id;
  }
  return { recommended, options, paths };
}

/** The option chosen (`from`, else the recommended one); 400 when `from` is not one the caller may use. */
export function chosenOption(plan: MemberRemovalPlan, from: number | undefined): MemberRemovalOption {
  const id = from ?? plan.recommended;
  const option = plan.options.find((o) => o.organization.id === id);
  if (!option)
    badRequest('Không thể xóa thành viên khỏi tổ chức này: hãy chọn đơn vị này hoặc một đơn vị cấp trên mà bạn được quyền xóa thành viên');
  return option!;
}

/** "A, B và C" */
export function namesList(orgs: { name: string }[]): string {
  const names = orgs.map((o) => o.name);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} và ${names.at(-1)}`;
}
