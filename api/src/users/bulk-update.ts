/**
 * POST /users/bulk-update (issue 30 item 6): one change — Đoàn/Hội status, user type, class,
 * departments, active flag, joining a unit or ending a membership there — for a selection of users
 * or for every user the users list shows for a filter. Each field follows the single-user rule
 * (service.ts update, manage.ts for type and active flag, access/reach.ts for adding, membership-end.ts
 * for ending); one row outside it refuses the whole change with its code listed, never skipped.
 * The change is set-based SQL in one transaction with one audit row per changed user; the
 * trigger-kept counts and figures follow the rows as they do for any single write.
 */
import { hasPermission } from '@doanhoi/shared';
import {
  USER_BULK_LISTED,
  USER_BULK_SAMPLE,
  type UserBulkRefusalReason,
  type UserBulkUpdate,
  type UserBulkUpdateResponse,
} from '@doanhoi/shared/schemas/users-bulk';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { refreshTokens } from '../db/tables/auth';
import { markRevoked } from '../access/revocation';
import { classes } from '../db/tables/classes';
import type { Tx } from '../db/client';
import { inJsonValues } from '../db/sqlite';
import { departments } from '../db/tables/departments';
import type { Actor, Deps } from '../lib/context';
import { fail, forbidden, invalidField, notFound } from '../lib/errors';
import { translate } from '../lib/i18n';
import { requireIn, visibleOrg } from '../access/organizations';
import { pathIds } from '../access/organization-context';
import { dayStart, END_MEMBERSHIP_CODES, leaveRule, leavingPlan, today, type Ending } from '../organizations/membership-end';
import { organizationMembers } from '../db/tables/organizations';
import { revokeRolesInUnitsLeft } from '../roles/leave';
import { writeBulkAudit } from './bulk-audit';
import {
  activeMembershipsOf,
  filterSelection,
  pathsOf,
  reached,
  rowsOf,
  superAdmins,
  type ActiveMembership,
  type BulkRow,
} from './bulk-checks';
import { manageRefusals } from './manage';
import { ADD_MEMBER_CODES, addableUsers } from '../access/reach';
import { userScope } from '../access/scope';
import { users } from '../db/tables/users';
import { allRows, firstRow, runQuery, sqlRun, withTransaction } from '../db/engine';
import { onPg } from '../db/dialect';

const FIELDS = ['membershipStatus', 'userType', 'isActive', 'classId', 'managementDepartmentId', 'trainingDepartmentId'] as const;
type Field = (typeof FIELDS)[number];
type Fields = Partial<Pick<BulkRow, Field>>;

/** Ids bound as one JSON array, as a FROM item `alias` with one column `value`. */
const idSet = (ids: number[], alias: string) =>
  onPg()
    ? sql`(SELECT value::int8 AS value FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) v(value)) ${sql.raw(alias)}`
    : sql`json_each(${JSON.stringify(ids)}) ${sql.raw(alias)}`;

/** Refusals that say the caller's scope does not cover a row (403); the others are the rows' state (409). */
const SCOPE_REFUSALS: UserBulkRefusalReason[] = ['not_updatable', 'super_admin', 'not_manageable', 'not_addable'];

interface Change {
  row: BulkRow;
  before: Fields;
  after: Fields;
  /** Units joined (the unit and its parents the caller may add to), minus those already held. */
  added: number[];
  ended: { id: number }[];
}

const person = (r: BulkRow) => ({ id: r.id, code: r.code, familyName: r.familyName, givenName: r.givenName });

export function bulkUpdateService({ db, env }: Deps, actor: Actor, req: { ip: string | null; lang: 'vi' | 'en' }) {
  const tr = (key: string, params?: Record<string, string | number>) => translate(`bulkEdit.api.${key}`, req.lang, params);
  const holds = (codes: string[], organizationId: number, path: string) =>
    codes.some((code) =>
      hasPermission(actor.roles, code, { organizationId, ancestorIds: pathIds(path).filter((id) => id !== organizationId) }),
    );

  function tooMany(matched: number, cap: number): never {
    return fail(413, tr('tooMany', { matched, cap }), { matched, cap });
  }

  async function assertReferences(f: Fields) {
    if (f.classId != null && !(await firstRow(db.select({ id: classes.id }).from(classes).where(eq(classes.id, f.classId))))) {
      invalidField('set.classId', translate('validation.classInvalid', req.lang));
    }
    for (const key of ['managementDepartmentId', 'trainingDepartmentId'] as const) {
      const id = f[key];
      if (id != null && !(await firstRow(db.select({ id: departments.id }).from(departments).where(eq(departments.id, id))))) {
        invalidField(`set.${key}`, translate('validation.departmentInvalid', req.lang));
      }
    }
  }

  /** The units joined: the unit, and each parent where the caller may add members (never above their reach). */
  async function addPlan(organizationId: number) {
    await requireIn(db, actor, organizationId, ADD_MEMBER_CODES);
    const org = await visibleOrg(db, actor, organizationId);
    const chain = pathIds(org.path);
    const paths = await pathsOf(db, chain);
    return chain.filter((id) => id === organizationId || holds(ADD_MEMBER_CODES, id, paths.get(id)!));
  }

  async function endPlan(e: NonNullable<UserBulkUpdate['set']['endMembership']>) {
    await requireIn(db, actor, e.organizationId, END_MEMBERSHIP_CODES);
    const org = await visibleOrg(db, actor, e.organizationId);
    const ending: Ending = { reason: e.reason, endedAt: e.endedAt ?? today(), note: e.note };
    return { org, ending };
  }

  /** "3 người dùng nằm ngoài phạm vi bạn được sửa: SV1, SV2, SV3; …", at most USER_BULK_LISTED codes in all. */
  function refusalMessage(refused: { row: BulkRow; reason: UserBulkRefusalReason }[]): string {
    let listed = 0;
    const parts: string[] = [];
    for (const reason of new Set(refused.map((r) => r.reason))) {
      const of = refused.filter((r) => r.reason === reason);
      const shown = of.slice(0, Math.max(0, USER_BULK_LISTED - listed));
      listed += shown.length;
      const more = of.length - shown.length;
      const codes = shown.map((r) => r.row.code).join(', ') + (more > 0 ? ` ${tr('andMore', { count: more })}` : '');
      parts.push(`${tr(`refusal.${reason}`, { count: of.length })}: ${codes}`);
    }
    return `${tr('refused', { count: refused.length })} ${parts.join('; ')}. ${tr('nothingSaved')}`;
  }

  /** The audit row's own organizations: the user's units before and the ones joined. */
  const auditOrganizations = (c: Change, memberships: ActiveMembership[]) => [...new Set([...memberships.map((m) => m.id), ...c.added])];

  async function write(
    tx: Tx,
    fields: Fields,
    changes: Change[],
    memberships: Map<number, ActiveMembership[]>,
    end: Awaited<ReturnType<typeof endPlan>> | null,
    bulkAdd: number[] | null,
  ): Promise<string[]> {
    const fieldIds = changes.filter((c) => Object.keys(c.after).length > 0).map((c) => c.row.id);
    if (fieldIds.length) await runQuery(tx.update(users).set(fields).where(inJsonValues(users.id, fieldIds)));
    // A deactivated account keeps no session (the single edit revokes on the same change).
    const deactivated = changes.filter((c) => c.after.isActive === false).map((c) => c.row.id);
    let revoked: string[] = [];
    if (deactivated.length) {
      const live = and(inJsonValues(refreshTokens.userId, deactivated), isNull(refreshTokens.revokedAt));
      revoked = (await allRows(tx.selectDistinct({ familyId: refreshTokens.familyId }).from(refreshTokens).where(live))).map(
        (r) => r.familyId,
      );
      if (revoked.length)
        await runQuery(tx.update(refreshTokens).set({ revokedAt: new Date(), revokedReason: 'account_change' }).where(live));
    }
    const joining = changes.filter((c) => c.added.length > 0).map((c) => c.row.id);
    if (bulkAdd && joining.length) {
      // One upsert for every (unit, user): a new row, or an ended one started again (as organizations/membership.ts join()).
      await sqlRun(
        tx,
        sql`INSERT INTO ${organizationMembers} (organization_id, user_id, role, is_active, joined_at)
        SELECT o.value, u.value, 'member', true, ${Date.now()} FROM ${idSet(joining, 'u')}, ${idSet(bulkAdd, 'o')} WHERE true
        ON CONFLICT (organization_id, user_id) DO UPDATE SET is_active = true, role = 'member', joined_at = excluded.joined_at, ended_at = NULL, end_reason = NULL, end_note = NULL
        WHERE ${organizationMembers}.is_active = false`,
      );
    }
    if (end) {
      // Users leaving the same units end in one statement per set of units.
      const groups = new Map<string, { orgIds: number[]; userIds: number[] }>();
      for (const c of changes.filter((x) => x.ended.length > 0)) {
        const orgIds = c.ended.map((m) => m.id).sort((a, b) => a - b);
        const key = orgIds.join(',');
        const g = groups.get(key) ?? { orgIds, userIds: [] };
        g.userIds.push(c.row.id);
        groups.set(key, g);
      }
      for (const g of groups.values()) {
        await runQuery(
          tx
            .update(organizationMembers)
            .set({
              isActive: false,
              endedAt: dayStart(end.ending.endedAt),
              endReason: end.ending.reason,
              endNote: end.ending.note?.trim() || null,
            })
            .where(
              and(
                inJsonValues(organizationMembers.userId, g.userIds),
                inJsonValues(organizationMembers.organizationId, g.orgIds),
                eq(organizationMembers.isActive, true),
              ),
            ),
        );
      }
    }
    await writeBulkAudit(
      tx,
      actor.id,
      req.ip,
      changes.map((c) => {
        const after: Record<string, unknown> = { ...c.after };
        if (c.added.length) after.added = c.added;
        if (c.ended.length && end) {
          after.endedMembership = {
            organizationId: end.org.id,
            organizationIds: c.ended.map((m) => m.id),
            reason: end.ending.reason,
            endedAt: end.ending.endedAt,
            note: end.ending.note?.trim() || null,
          };
        }
        return { userId: c.row.id, before: c.before, after, organizationIds: auditOrganizations(c, memberships.get(c.row.id) ?? []) };
      }),
    );
    if (end)
      await revokeRolesInUnitsLeft(
        tx,
        actor.id,
        req.ip,
        changes.map((c) => ({ userId: c.row.id, organizationIds: c.ended.map((m) => m.id) })),
      );
    return revoked;
  }

  return {
    async run(input: UserBulkUpdate): Promise<UserBulkUpdateResponse> {
      const cap = env.BULK_UPDATE_MAX_USERS;
      const dryRun = input.dryRun === true;
      const { set } = input;
      const fields: Fields = {};
      for (const key of FIELDS) if (set[key] !== undefined) (fields as Record<string, unknown>)[key] = set[key];
      const hasFields = Object.keys(fields).length > 0;
      // What does not depend on the rows is refused first: the units named, a right held nowhere, unknown references.
      const bulkAdd = set.addToOrganizationId !== undefined ? await addPlan(set.addToOrganizationId) : null;
      const end = set.endMembership ? await endPlan(set.endMembership) : null;
      const updateScope = await userScope(db, actor, 'users.update');
      if (hasFields && !updateScope.all && updateScope.paths.length === 0) forbidden();
      await assertReferences(fields);
      const wanted = input.ids ? [...new Set(input.ids)] : null;
      if (wanted && wanted.length > cap) tooMany(wanted.length, cap);

      // Everything from reading the selection to writing the change is one synchronous transaction:
      // no other write lands between the checks and the change they allow.
      const result = await withTransaction(db, async (tx) => {
        let ids: number[];
        if (wanted) {
          const visible = await reached(db, await userScope(db, actor, 'users.access'), wanted);
          const missing = wanted.filter((id) => !visible.has(id));
          if (missing.length) notFound(tr('notFound', { count: missing.length }));
          ids = wanted;
        } else {
          const sel = await filterSelection(db, actor, input.filter!, cap);
          if (sel.total > cap) {
            if (!dryRun) tooMany(sel.total, cap);
            return {
              response: {
                message: tr('tooMany', { matched: sel.total, cap }),
                dryRun,
                matched: sel.total,
                changed: 0,
                cap,
                sample: [],
                refusals: [],
                refusedCount: 0,
              },
              revoked: [],
            };
          }
          ids = sel.ids;
        }
        const rows = await rowsOf(db, ids);
        const memberships = await activeMembershipsOf(db, ids);

        const refused = new Map<number, UserBulkRefusalReason>();
        const refuse = (xs: Iterable<number>, reason: UserBulkRefusalReason) => {
          for (const id of xs) if (!refused.has(id)) refused.set(id, reason);
        };
        if (hasFields) {
          const updatable = await reached(db, updateScope, ids);
          refuse(
            ids.filter((id) => !updatable.has(id)),
            'not_updatable',
          );
          if (!actor.isSuperAdmin) refuse(await superAdmins(db, ids), 'super_admin');
          // Type and active flag say who holds the account: the "manage whom" rule of the single edit.
          if (fields.userType !== undefined || fields.isActive !== undefined) {
            for (const [id, why] of await manageRefusals(db, actor, ids, 'users.update'))
              refuse([id], why === 'super_admin' ? 'super_admin' : 'not_manageable');
          }
          if (fields.isActive === false && ids.includes(actor.id)) refuse([actor.id], 'self');
        }
        if (bulkAdd) {
          const addable = await addableUsers(db, actor, ids);
          refuse(
            ids.filter((id) => !addable.has(id)),
            'not_addable',
          );
        }
        if (end)
          refuse(
            ids.filter((id) => !(memberships.get(id) ?? []).some((m) => m.id === end.org.id)),
            'not_member',
          );

        const mayLeave = (id: number, ancestorIds: number[]) =>
          END_MEMBERSHIP_CODES.some((code) => hasPermission(actor.roles, code, { organizationId: id, ancestorIds }));
        const changes: Change[] = [];
        for (const row of rows) {
          const before: Fields = {};
          const after: Fields = {};
          for (const key of FIELDS) {
            if (fields[key] !== undefined && fields[key] !== row[key]) {
              (before as Record<string, unknown>)[key] = row[key];
              (after as Record<string, unknown>)[key] = fields[key];
            }
          }
          const mine = memberships.get(row.id) ?? [];
          const added = bulkAdd ? bulkAdd.filter((id) => !mine.some((m) => m.id === id)) : [];
          const ended = end && !refused.has(row.id) ? leavingPlan(mine, end.org.path, leaveRule(end.ending.reason, mayLeave)).leaves : [];
          if (Object.keys(after).length || added.length || ended.length) changes.push({ row, before, after, added, ended });
        }

        const refusedRows = rows.filter((r) => refused.has(r.id)).map((row) => ({ row, reason: refused.get(row.id)! }));
        if (refusedRows.length && !dryRun) {
          const status = refusedRows.some((r) => SCOPE_REFUSALS.includes(r.reason)) ? 403 : 409;
          fail(status, refusalMessage(refusedRows), {
            refusals: refusedRows.slice(0, USER_BULK_LISTED).map((r) => ({ ...person(r.row), reason: r.reason })),
            refusedCount: refusedRows.length,
          });
        }
        const revoked = dryRun ? [] : await write(tx, fields, changes, memberships, end, bulkAdd);
        const message = dryRun
          ? refusedRows.length
            ? refusalMessage(refusedRows)
            : tr('preview', { matched: rows.length, changed: changes.length })
          : tr('done', { changed: changes.length, matched: rows.length });
        const response: UserBulkUpdateResponse = {
          message,
          dryRun,
          matched: rows.length,
          changed: changes.length,
          cap,
          sample: (changes.length ? changes.map((c) => c.row) : rows).slice(0, USER_BULK_SAMPLE).map(person),
          refusals: refusedRows.slice(0, USER_BULK_LISTED).map((r) => ({ ...person(r.row), reason: r.reason })),
          refusedCount: refusedRows.length,
        };
        return { response, revoked };
      });
      markRevoked(result.revoked);
      return result.response;
    },
  };
}
