/**
 * Ending a membership with a date and a reason (issue 30 item 2), one member or a year-end
 * selection at once, and the same ending for an accepted transfer (transfers/service.ts). An
 * ended membership keeps its row (is_active = 0 with ended_at / end_reason / end_note): the
 * trigger-kept counts and figures see it leave as they see any deactivation, and the member's
 * fees and history stay where they were. Leaving a unit leaves everything beneath it and each
 * parent that holds no other unit of theirs, as far up as the caller may end memberships (000 §4,
 * as removal.ts does for a removal) — or all the way up when the reason ends the member's union
 * life here (LEAVES_THE_UNION): a faculty ending its graduates must not leave them counted,
 * charged and reported as active members of the school.
 */
import { fullName, hasPermission, type MembershipEndReason, type OrganizationRef } from '@doanhoi/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { audit } from '../audit/writer';
import type { Actor, Deps } from '../lib/context';
import { badRequest, notFound } from '../lib/errors';
import { revokeRolesInUnitsLeft } from '../roles/leave';
import { users } from '../db/tables/users';
import { requireIn, visibleOrg } from '../access/organizations';
import { pathIds } from '../access/organization-context';
import { activeMemberships, namesList, type Membership } from './removal';
import { organizationMembers } from '../db/tables/organizations';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';
import { filterInOrder } from '../lib/in-order';

export const END_MEMBERSHIP_CODES = ['organizations.end_membership', 'organizations.manage_members'];

export interface Ending {
  reason: MembershipEndReason;
  /** 'YYYY-MM-DD' */
  endedAt: string;
  note?: string | null;
}

/**
 * Reasons that end the member's union life in this organization (graduation, age, death, moving
 * away): every parent left holding no other unit of theirs ends too, whatever the caller's reach.
 * Other reasons (removed, other) stop at the caller's reach, as a removal does.
 */
const LEAVES_THE_UNION: ReadonlySet<MembershipEndReason> = new Set(['graduated', 'over_age', 'deceased', 'moved_away']);
export const leaveRule = (reason: MembershipEndReason, mayLeave: (id: number, ancestorIds: number[]) => boolean) =>
  LEAVES_THE_UNION.has(reason) ? () => true : mayLeave;

/** A calendar day as the instant it starts in Vietnam (UTC+7, as the term figures count). */
export const dayStart = (day: string) => new Date(`${day}T00:00:00+07:00`);
export const today = () => new Date(Date.now() + 7 * 3600_000).toISOString().slice(0, 10);

const ref = (m: Membership): OrganizationRef => ({ id: m.id, name: m.name, code: m.code, type: m.type });
const deepestFirst = (a: Membership, b: Membership) => b.path.length - a.path.length || a.name.localeCompare(b.name, 'vi');

/**
 * Which of `memberships` end when the member leaves the unit at `unitPath`: the unit and what lies
 * beneath it, then each parent (nearest first) the member may leave (`mayLeave`) that no longer
 * holds another unit of theirs. `keep` names parents that stay whatever (a transfer's new chain).
 */
export function leavingPlan(
  memberships: Membership[],
  unitPath: string,
  mayLeave: (id: number, ancestorIds: number[]) => boolean,
  keep = new Set<number>(),
) {
  const leaves = memberships.filter((m) => m.path.startsWith(unitPath));
  let remaining = memberships.filter((m) => !m.path.startsWith(unitPath));
  const chain = pathIds(unitPath);
  for (let i = chain.length - 2; i >= 0; i--) {
    const id = chain[i]!;
    if (keep.has(id) || !mayLeave(id, chain.slice(0, i))) break;
    const level = remaining.find((m) => m.id === id);
    if (!level) continue;
    if (remaining.some((m) => m.id !== id && m.path.startsWith(level.path))) break;
    leaves.push(level);
    remaining = remaining.filter((m) => m.id !== id);
  }
  return { leaves: leaves.sort(deepestFirst), staysIn: remaining.sort(deepestFirst) };
}

/** Ends these active memberships of one user (inside the caller's transaction); returns how many changed. */
export async function endMemberships(tx: Tx, userId: number, organizationIds: number[], e: Ending): Promise<number> {
  if (organizationIds.length === 0) return 0;
  return (
    await runQuery(
      tx
        .update(organizationMembers)
        .set({ isActive: false, endedAt: dayStart(e.endedAt), endReason: e.reason, endNote: e.note?.trim() || null })
        .where(
          and(
            eq(organizationMembers.userId, userId),
            inArray(organizationMembers.organizationId, organizationIds),
            eq(organizationMembers.isActive, true),
          ),
        ),
    )
  ).changes;
}

export function membershipEndService({ db }: Deps, actor: Actor, ip: string | null) {
  const mayLeave = (id: number, ancestorIds: number[]) =>
    END_MEMBERSHIP_CODES.some((code) => hasPermission(actor.roles, code, { organizationId: id, ancestorIds }));

  /** The audit row of one member's ending: on the user, so their history reads it (issue 30 item 3). */
  const record = (tx: Tx, organizationId: number, userId: number, e: Ending, ended: Membership[], bulk: boolean) =>
    audit(tx, {
      actorId: actor.id,
      action: 'membership.end',
      entity: 'user',
      entityId: userId,
      organizationId,
      organizationIds: ended.map((m) => m.id),
      after: {
        userId,
        organizationId,
        reason: e.reason,
        endedAt: e.endedAt,
        note: e.note?.trim() || null,
        ended: ended.map((m) => m.id),
        ...(bulk ? { bulk: true } : {}),
      },
      ip,
    });

  return {
    async end(organizationId: number, userId: number, input: { reason: MembershipEndReason; endedAt?: string; note?: string | null }) {
      await requireIn(db, actor, organizationId, END_MEMBERSHIP_CODES);
      const org = await visibleOrg(db, actor, organizationId);
      const u = await firstRow(
        db.select({ id: users.id, familyName: users.familyName, givenName: users.givenName }).from(users).where(eq(users.id, userId)),
      );
      if (!u) notFound('Không tìm thấy người dùng');
      const e: Ending = { reason: input.reason, endedAt: input.endedAt ?? today(), note: input.note };
      const plan = await withTransaction(db, async (tx) => {
        // Read inside the transaction: a second click (or a transfer accepted meanwhile) finds nothing left to end.
        const memberships = await activeMemberships(tx, userId);
        if (!memberships.some((m) => m.id === organizationId)) notFound('Người dùng không phải thành viên đang sinh hoạt của tổ chức');
        const p = leavingPlan(memberships, org.path, leaveRule(e.reason, mayLeave));
        await endMemberships(
          tx,
          userId,
          p.leaves.map((m) => m.id),
          e,
        );
        await record(tx, organizationId, userId, e, p.leaves, false);
        await revokeRolesInUnitsLeft(tx, actor.id, ip, [{ userId, organizationIds: p.leaves.map((m) => m.id) }]);
        return p;
      });
      const message =
        `Đã kết thúc sinh hoạt của ${fullName(u!)} tại ${namesList(plan.leaves)}` +
        (plan.staysIn.length ? `; vẫn sinh hoạt tại ${namesList(plan.staysIn)}` : '');
      return { message, ended: plan.leaves.map(ref), staysIn: plan.staysIn.map(ref) };
    },

    /**
     * The year-end action: every chosen member (or every active member of a class) leaves, in one
     * transaction with one audit row per member; one who is not an active member here refuses it all.
     */
    async bulkEnd(
      organizationId: number,
      input: { userIds?: number[]; classId?: number; reason: MembershipEndReason; endedAt?: string; note?: string | null },
    ) {
      await requireIn(db, actor, organizationId, END_MEMBERSHIP_CODES);
      const org = await visibleOrg(db, actor, organizationId);
      const e: Ending = { reason: input.reason, endedAt: input.endedAt ?? today(), note: input.note };
      const activeHere = async (ids: number[] | null) =>
        await allRows(
          db
            .select({ id: users.id, code: users.code, classId: users.classId })
            .from(organizationMembers)
            .innerJoin(users, eq(users.id, organizationMembers.userId))
            .where(
              and(
                eq(organizationMembers.organizationId, organizationId),
                eq(organizationMembers.isActive, true),
                ids ? inArray(organizationMembers.userId, ids) : eq(users.classId, input.classId!),
              ),
            ),
        );
      let ids: number[];
      if (input.userIds) {
        const wanted = [...new Set(input.userIds)];
        const found = new Set(
          wanted.length <= 900
            ? (await activeHere(wanted)).map((r) => r.id)
            : await filterInOrder(wanted, async (id) => (await activeHere([id])).length),
        );
        const missing = wanted.filter((id) => !found.has(id));
        if (missing.length)
          badRequest(
            `Không phải thành viên đang sinh hoạt của ${org.name}: ${missing.slice(0, 20).join(', ')}${missing.length > 20 ? '…' : ''}`,
          );
        ids = wanted;
      } else {
        ids = (await activeHere(null)).map((r) => r.id);
        if (ids.length === 0) badRequest(`Lớp này không có thành viên đang sinh hoạt tại ${org.name}`);
      }
      const memberships = await withTransaction(db, async (tx) => {
        let n = 0;
        const leavers = [];
        for (const userId of ids) {
          const mine = await activeMemberships(tx, userId);
          if (!mine.some((m) => m.id === organizationId)) continue;
          const p = leavingPlan(mine, org.path, leaveRule(e.reason, mayLeave));
          n += await endMemberships(
            tx,
            userId,
            p.leaves.map((m) => m.id),
            e,
          );
          await record(tx, organizationId, userId, e, p.leaves, true);
          leavers.push({ userId, organizationIds: p.leaves.map((m) => m.id) });
        }
        await revokeRolesInUnitsLeft(tx, actor.id, ip, leavers);
        return n;
      });
      return { message: `Đã kết thúc sinh hoạt của ${ids.length} thành viên tại ${org.name}`, endedCount: ids.length, memberships };
    },
  };
}
