/**
 * A role held in a unit ends with the membership of that unit (issue 30 items 1–2): when an ending,
 * a year-end action, an accepted transfer or a bulk edit's "end a membership" ends a member's
 * memberships, the role links scoped to exactly those units are taken away in the same transaction
 * (a chi đoàn secretary who moves on no longer manages the chi đoàn they left). Global links, and
 * links in units the member still belongs to, stay. Each member whose links change gets one
 * `user.roles.revoke_on_leave` row with the links before and after, as a grant writes them, so the
 * audit log and the member's history tell the revocation (docs/decisions.md).
 */
import { and, inArray } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { inJsonValues } from '../db/sqlite';
import { audit } from '../audit/writer';
import { describeLinks } from './assignments.query';
import { userRoles } from '../db/tables/roles';
import { allRows, runQuery } from '../db/engine';

export interface Leaver {
  userId: number;
  /** The units whose memberships this action ended. */
  organizationIds: number[];
}

/** Returns the ids of the members who lost a role. */
export async function revokeRolesInUnitsLeft(tx: Tx, actorId: number | null, ip: string | null, leavers: Leaver[]): Promise<number[]> {
  const wanted = leavers.filter((l) => l.organizationIds.length > 0);
  if (wanted.length === 0) return [];
  const orgIds = [...new Set(wanted.flatMap((l) => l.organizationIds))];
  const held = await allRows(
    tx
      .select({ id: userRoles.id, userId: userRoles.userId, organizationId: userRoles.organizationId })
      .from(userRoles)
      .where(
        and(
          inJsonValues(
            userRoles.userId,
            wanted.map((l) => l.userId),
          ),
          inJsonValues(userRoles.organizationId, orgIds),
        ),
      ),
  );
  const touched: number[] = [];
  for (const l of wanted) {
    const left = new Set(l.organizationIds);
    const ids = held.filter((r) => r.userId === l.userId && r.organizationId != null && left.has(r.organizationId)).map((r) => r.id);
    if (ids.length === 0) continue;
    const before = await describeLinks(tx, l.userId);
    await runQuery(tx.delete(userRoles).where(inArray(userRoles.id, ids)));
    await audit(tx, {
      actorId,
      action: 'user.roles.revoke_on_leave',
      entity: 'user',
      entityId: l.userId,
      before,
      after: await describeLinks(tx, l.userId),
      ip,
    });
    touched.push(l.userId);
  }
  return touched;
}
