/**
 * Organization members import (000 §3, §5). Level 3 (a unit: chi đoàn, chi hội, club): a member
 * code per row, added to the organization. Level 2 (a faculty unit): also the code of the class or
 * unit beneath it that the member joins. Either way the member joins every parent too.
 */
import { memberImportColumns } from '@doanhoi/shared';
import { and, eq, like } from 'drizzle-orm';
import { organizationMembers, organizations } from '../../organizations/schema';
import { users } from '../../users/schema';
import type { CheckedRow, ImportKindDef } from '../kind';
import { ancestorsAndSelf, whereIn } from '../lookups';

interface MemberRow {
  userId: number | null;
  studentCode: string;
  targetPath: string;
}

const levelOf = (params: Record<string, unknown>) => (params.level === 2 ? 2 : 3) as 2 | 3;

export const membersImport: ImportKindDef<MemberRow> = {
  kind: 'organization_members',
  sheetName: 'Thành viên',
  templateName: (params) => `organization_members_level_${levelOf(params)}_template.xlsx`,
  columns: (params) => memberImportColumns(levelOf(params)),
  tables: ['organization_members', 'users'],
  check(db, rows, _actor, params) {
    const level = levelOf(params);
    const org = db.select().from(organizations).where(eq(organizations.id, Number(params.organizationId))).get();
    const units = new Map<string, string>();
    if (org && level === 2) {
      for (const u of db.select({ code: organizations.code, path: organizations.path }).from(organizations).where(like(organizations.path, `${org.path}%`)).all()) {
        if (u.path !== org.path) units.set(u.code.toLowerCase(), u.path);
      }
    }
    const byCode = new Map(
      whereIn(rows.map((r) => (r.values.studentCode ?? '').trim()), users.code, (c) => db.select({ id: users.id, code: users.code }).from(users).where(c).all()).map((u) => [u.code, u.id]),
    );
    const seen = new Map<string, number>();
    return rows.map(({ rowNumber, values: v }): CheckedRow<MemberRow> => {
      const errors: string[] = [];
      const warnings: string[] = [];
      const studentCode = (v.studentCode ?? '').trim();
      let targetPath = org?.path ?? '';
      if (!studentCode) errors.push('Thiếu mã sinh viên');
      const userId = studentCode ? (byCode.get(studentCode) ?? null) : null;
      if (studentCode && userId == null) errors.push(`Không tìm thấy người dùng có mã ${studentCode}`);
      if (level === 2) {
        const unit = (v.classOrUnitCode ?? '').trim();
        if (!unit) errors.push('Thiếu mã lớp/đơn vị');
        else if (!units.has(unit.toLowerCase())) errors.push(`Không tìm thấy đơn vị ${unit} trực thuộc ${org?.name ?? 'tổ chức'}`);
        else targetPath = units.get(unit.toLowerCase())!;
      }
      const key = `${studentCode}|${targetPath}`;
      const duplicate = seen.has(key);
      if (duplicate) errors.push(`Trùng với dòng ${seen.get(key)}`);
      else seen.set(key, rowNumber);
      let existingId: number | null = null;
      if (userId != null && targetPath) {
        const orgId = ancestorsAndSelf(targetPath).at(-1)!;
        const m = db
          .select({ id: organizationMembers.id })
          .from(organizationMembers)
          .where(and(eq(organizationMembers.organizationId, orgId), eq(organizationMembers.userId, userId)))
          .get();
        if (m) {
          existingId = m.id;
          warnings.push('Người dùng đã là thành viên');
        }
      }
      return { rowNumber, errors, warnings, duplicate, existingId, data: { userId, studentCode, targetPath } };
    });
  },
  write(tx, row) {
    let added = false;
    for (const orgId of ancestorsAndSelf(row.data.targetPath)) {
      const r = tx.insert(organizationMembers).values({ organizationId: orgId, userId: row.data.userId!, role: 'member' }).onConflictDoNothing().run();
      if (r.changes > 0) added = true;
    }
    return added ? 'created' : 'unchanged';
  },
};
