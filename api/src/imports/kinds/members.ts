/**
 * Organization members import (000 §3, §5). Level 3 (a unit: chi đoàn, chi hội, club): a member
 * code per row, added to the organization. Level 2 (a faculty unit): also the code of the class or
 * unit beneath it that the member joins. Either way the member joins the parents the importer may add to.
 */
import { hasPermission, memberImportColumns } from '@doanhoi/shared';
import { and, eq, gte, inArray, lt } from 'drizzle-orm';
import { organizationMembers, organizations } from '../../db/tables/organizations';
import { addableUsers } from '../../access/reach';
import { subtreeRange } from '../../access/scope';
import type { Actor } from '../../lib/context';
import { users } from '../../db/tables/users';
import { mapInSlices } from '../batches';
import type { CheckedRow, ImportKindDef } from '../kind';
import { ancestorsAndSelf, chunked, whereIn } from '../lookups';
import { addMemberships, memberPairs } from './user-writes';
import { translate } from '../../lib/i18n';
import { allRows, firstRow } from '../../db/engine';

interface MemberRow {
  userId: number | null;
  studentCode: string;
  targetPath: string;
}

const ADD = ['organizations.add_member', 'organizations.manage_members'];

/**
 * The member joins the target and its parents, but only the parents where the importer may add
 * members: an import never writes above the importer's reach (docs/decisions.md).
 */
function pairsWithinReach(actor: Actor, userId: number, targetPath: string) {
  const chain = ancestorsAndSelf(targetPath);
  const target = chain.at(-1);
  return memberPairs(userId, [targetPath]).filter((p) => {
    if (p.organizationId === target) return true;
    const ctx = { organizationId: p.organizationId, ancestorIds: chain.slice(0, chain.indexOf(p.organizationId)) };
    return ADD.some((code) => hasPermission(actor.roles, code, ctx));
  });
}

const levelOf = (params: Record<string, unknown>) => (params.level === 2 ? 2 : 3) as 2 | 3;

export const membersImport: ImportKindDef<MemberRow> = {
  kind: 'organization_members',
  sheetName: 'Thành viên',
  templateName: (params) => `organization_members_level_${levelOf(params)}_template.xlsx`,
  columns: (params) => memberImportColumns(levelOf(params)),
  tables: ['organization_members', 'users'],
  async check(db, rows, actor, params, lang = 'vi') {
    // Row messages in the caller's language (issue 26 item 6): data/locales/{vi,en}/imports.json rows.*.
    const tr = (key: string, p?: Record<string, string | number>) => translate(`imports.rows.${key}`, lang, p);
    const level = levelOf(params);
    const org = await firstRow(
      db
        .select()
        .from(organizations)
        .where(eq(organizations.id, Number(params.organizationId))),
    );
    const units = new Map<string, string>();
    if (org && level === 2) {
      const [from, to] = subtreeRange(org.path);
      for (const u of await allRows(
        db
          .select({ code: organizations.code, path: organizations.path })
          .from(organizations)
          .where(and(gte(organizations.path, from), lt(organizations.path, to))),
      )) {
        if (u.path !== org.path) units.set(u.code.toLowerCase(), u.path);
      }
    }
    const byCode = new Map(
      (
        await whereIn(
          rows.map((r) => (r.values.studentCode ?? '').trim()),
          users.code,
          async (c) => await allRows(db.select({ id: users.id, code: users.code }).from(users).where(c)),
        )
      ).map((u) => [u.code, u.id]),
    );
    // Active memberships of these users, in one query per chunk: "organizationId:userId".
    const member = new Set<string>();
    for (const ids of chunked([...new Set(byCode.values())])) {
      for (const m of await allRows(
        db
          .select({ o: organizationMembers.organizationId, u: organizationMembers.userId })
          .from(organizationMembers)
          .where(and(inArray(organizationMembers.userId, ids), eq(organizationMembers.isActive, true))),
      ))
        member.add(`${m.o}:${m.u}`);
    }
    // Only someone already within the caller's reach may be added (issue 25 item 8, access/reach.ts).
    const addable = await addableUsers(db, actor, [...byCode.values()]);
    const seen = new Map<string, number>();
    return mapInSlices(rows, ({ rowNumber, values: v }): CheckedRow<MemberRow> => {
      const errors: string[] = [];
      const warnings: string[] = [];
      const studentCode = (v.studentCode ?? '').trim();
      let targetPath = org?.path ?? '';
      if (!studentCode) errors.push(tr('studentCodeMissing'));
      const userId = studentCode ? (byCode.get(studentCode) ?? null) : null;
      if (studentCode && userId == null) errors.push(tr('studentNotFound', { code: studentCode }));
      if (userId != null && !addable.has(userId)) errors.push(tr('outsideReach'));
      if (level === 2) {
        const unit = (v.classOrUnitCode ?? '').trim();
        if (!unit) errors.push(tr('unitMissing'));
        else if (!units.has(unit.toLowerCase())) errors.push(tr('unitNotFound', { unit, parent: org?.name ?? tr('unitParent') }));
        else targetPath = units.get(unit.toLowerCase())!;
      }
      const key = `${studentCode}|${targetPath}`;
      const duplicate = seen.has(key);
      if (duplicate) errors.push(tr('rowRepeated', { row: seen.get(key)! }));
      else seen.set(key, rowNumber);
      let existingId: number | null = null;
      if (userId != null && targetPath && member.has(`${ancestorsAndSelf(targetPath).at(-1)}:${userId}`)) {
        existingId = userId;
        warnings.push(tr('alreadyMember'));
      }
      return { rowNumber, errors, warnings, duplicate, existingId, data: { userId, studentCode, targetPath } };
    });
  },
  async write(tx, row, _options, actor) {
    return (await addMemberships(tx, pairsWithinReach(actor, row.data.userId!, row.data.targetPath))).length > 0 ? 'created' : 'unchanged';
  },

  /** All the batch's memberships in multi-row upserts; a row counts as created if any of its own memberships changed. */
  async writeBatch(tx, rows, _options, actor) {
    const pairs = rows.map((r) => pairsWithinReach(actor, r.data.userId!, r.data.targetPath));
    const changed = new Set((await addMemberships(tx, pairs.flat())).map((p) => `${p.organizationId}:${p.userId}`));
    return pairs.map((ps) => (ps.some((p) => changed.has(`${p.organizationId}:${p.userId}`)) ? 'created' : 'unchanged'));
  },
};
