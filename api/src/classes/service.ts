import {
  fullName,
  normalizeText,
  type ClassDetail,
  type ClassItem,
  type ClassListQuery,
  type ClassListResponse,
  type CreateClass,
  type UpdateClass,
} from '@doanhoi/shared';
import { and, asc, count, desc, eq, inArray, ne, type SQL } from 'drizzle-orm';
import { filterKey, searchTextLike } from '../departments/query';
import { departments } from '../departments/schema';
import { audit } from '../lib/audit';
import type { Actor, Deps } from '../lib/context';
import { badRequest, conflict, isUniqueViolation, notFound } from '../lib/errors';
import { translate } from '../lib/i18n';
import { cachedTotal, invalidateTotals, totalPages } from '../lib/totals';
import { scopeCondition, userScope } from '../users/scope';
import { users } from '../users/schema';
import { classes } from './schema';

type Row = typeof classes.$inferSelect;
type Dept = { id: number; name: string; code: string | null } | null;

const CODE_TAKEN = 'Mã lớp đã tồn tại';
const NOT_FOUND = 'Không tìm thấy lớp';

function searchText(name: string, code: string | null): string {
  return normalizeText(`${name} ${code ?? ''}`);
}

/** What the audit log keeps of a class (no search column, no timestamps). */
function snapshot(r: Row) {
  return { id: r.id, name: r.name, code: r.code, year: r.year, departmentId: r.departmentId, isActive: r.isActive };
}

function toClass(r: Row, department: Dept, studentCount: number): ClassItem {
  return {
    id: r.id,
    name: r.name,
    code: r.code,
    year: r.year,
    isActive: r.isActive,
    department: department && department.id != null ? department : null,
    studentCount,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/**
 * The class catalogue. A class's students are the users whose classId points at it. University-wide:
 * no row scoping (writes need a global grant, see departments/access.ts); every write is audited.
 */
export function classesService({ db }: Deps, actor: Actor, req: { ip: string | null; lang: 'vi' | 'en' }) {
  const caller = { actorId: actor.id, ip: req.ip };
  const deptColumns = { id: departments.id, name: departments.name, code: departments.code };

  /** Student counts for just these classes: one grouped query on users_class_idx. */
  function studentCounts(ids: number[]): Map<number, number> {
    const out = new Map<number, number>(ids.map((id) => [id, 0]));
    if (ids.length === 0) return out;
    const rows = db
      .select({ id: users.classId, n: count() })
      .from(users)
      .where(inArray(users.classId, ids))
      .groupBy(users.classId)
      .all();
    for (const r of rows) out.set(r.id!, r.n);
    return out;
  }

  function findRow(id: number): Row {
    const row = db.select().from(classes).where(eq(classes.id, id)).get();
    if (!row) notFound(NOT_FOUND);
    return row!;
  }

  function assertCodeFree(code: string | null | undefined, exceptId?: number) {
    if (!code) return;
    const cond = exceptId ? and(eq(classes.code, code), ne(classes.id, exceptId)) : eq(classes.code, code);
    if (db.select({ id: classes.id }).from(classes).where(cond).get()) conflict(CODE_TAKEN);
  }

  function assertDepartment(departmentId: number | null | undefined) {
    if (departmentId == null) return;
    if (!db.select({ id: departments.id }).from(departments).where(eq(departments.id, departmentId)).get()) {
      // Same shape as the validation hook, so the form shows it on the department field.
      const message = translate('validation.departmentInvalid', req.lang);
      badRequest(`departmentId: ${message}`, { issues: [{ path: 'departmentId', message }] });
    }
  }

  function write<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (isUniqueViolation(err)) conflict(CODE_TAKEN);
      throw err;
    }
  }

  /**
   * Names and e-mails are personal data: a global grant sees every student of the class, an
   * org-scoped one only the active members of its organizations' subtrees (the same reach as the
   * users list); studentCount stays the class total.
   */
  function visibleStudents(): SQL | undefined {
    return scopeCondition(db, userScope(db, actor, 'classes.view_details'));
  }

  function get(id: number): ClassDetail {
    const found = db
      .select({ row: classes, department: deptColumns })
      .from(classes)
      .leftJoin(departments, eq(departments.id, classes.departmentId))
      .where(eq(classes.id, id))
      .get();
    if (!found) notFound(NOT_FOUND);
    const students = db
      .select({ id: users.id, code: users.code, familyName: users.familyName, givenName: users.givenName, email: users.email })
      .from(users)
      .where(and(eq(users.classId, id), visibleStudents()))
      .orderBy(asc(users.givenName), asc(users.familyName), asc(users.id))
      .all()
      .map((s) => ({ ...s, fullName: fullName(s) }));
    const total = studentCounts([id]).get(id)!;
    return { ...toClass(found!.row, found!.department, total), students };
  }

  /** 409 naming the classes that still have students: deleting would silently unassign them. */
  function refuseIfStudents(rows: Row[]) {
    const counts = studentCounts(rows.map((r) => r.id));
    const busy = rows.filter((r) => counts.get(r.id)! > 0);
    if (busy.length === 0) return;
    const list = busy.map((r) => `${r.name} (${counts.get(r.id)} sinh viên)`).join(', ');
    conflict(`Không thể xóa lớp còn sinh viên: ${list}. Hãy chuyển sinh viên sang lớp khác trước`);
  }

  return {
    list(q: ClassListQuery): ClassListResponse {
      const search = normalizeText(q.search);
      const where = and(
        searchTextLike(classes.searchText, search),
        q.year === undefined ? undefined : eq(classes.year, q.year),
        q.departmentId === undefined ? undefined : eq(classes.departmentId, q.departmentId),
        q.isActive === undefined ? undefined : eq(classes.isActive, q.isActive),
      );
      const key = filterKey({ search, year: q.year, departmentId: q.departmentId, isActive: q.isActive });
      const total = cachedTotal('classes', key, () => db.select({ n: count() }).from(classes).where(where).get()!.n);
      const rows = db
        .select({ row: classes, department: deptColumns })
        .from(classes)
        .leftJoin(departments, eq(departments.id, classes.departmentId))
        .where(where)
        .orderBy(desc(classes.year), asc(classes.name), asc(classes.id))
        .limit(q.limit)
        .offset((q.page - 1) * q.limit)
        .all();
      const counts = studentCounts(rows.map((r) => r.row.id));
      return {
        classes: rows.map((r) => toClass(r.row, r.department, counts.get(r.row.id)!)),
        total,
        page: q.page,
        limit: q.limit,
        totalPages: totalPages(total, q.limit),
      };
    },

    get,

    create(input: CreateClass): ClassDetail {
      const code = input.code ?? null;
      assertDepartment(input.departmentId);
      assertCodeFree(code);
      const id = write(() =>
        db.transaction((tx) => {
          const created = tx
            .insert(classes)
            .values({
              name: input.name,
              code,
              year: input.year,
              departmentId: input.departmentId ?? null,
              isActive: input.isActive ?? true,
              searchText: searchText(input.name, code),
            })
            .returning()
            .get();
          audit(tx, { ...caller, action: 'class.create', entity: 'class', entityId: created.id, after: snapshot(created) });
          return created.id;
        }),
      );
      invalidateTotals('classes');
      return get(id);
    },

    update(id: number, input: UpdateClass): ClassDetail {
      const before = findRow(id);
      assertDepartment(input.departmentId);
      assertCodeFree(input.code, id);
      const name = input.name ?? before.name;
      const code = input.code === undefined ? before.code : input.code;
      write(() =>
        db.transaction((tx) => {
          const after = tx
            .update(classes)
            .set({
              name,
              code,
              year: input.year ?? before.year,
              departmentId: input.departmentId === undefined ? before.departmentId : input.departmentId,
              isActive: input.isActive ?? before.isActive,
              searchText: searchText(name, code),
            })
            .where(eq(classes.id, id))
            .returning()
            .get();
          audit(tx, { ...caller, action: 'class.update', entity: 'class', entityId: id, before: snapshot(before), after: snapshot(after) });
        }),
      );
      invalidateTotals('classes');
      return get(id);
    },

    remove(id: number): void {
      const before = findRow(id);
      db.transaction((tx) => {
        refuseIfStudents([before]);
        tx.delete(classes).where(eq(classes.id, id)).run();
        audit(tx, { ...caller, action: 'class.delete', entity: 'class', entityId: id, before: snapshot(before) });
      });
      invalidateTotals('classes');
    },

    /** All or nothing: one class with students refuses the whole request. Unknown ids are ignored. */
    bulkRemove(ids: number[]): { deletedCount: number } {
      const deleted = db.transaction((tx) => {
        const rows = tx.select().from(classes).where(inArray(classes.id, [...new Set(ids)])).all();
        if (rows.length === 0) return 0;
        refuseIfStudents(rows);
        tx.delete(classes).where(inArray(classes.id, rows.map((r) => r.id))).run();
        for (const r of rows) audit(tx, { ...caller, action: 'class.bulk_delete', entity: 'class', entityId: r.id, before: snapshot(r) });
        return rows.length;
      });
      if (deleted > 0) invalidateTotals('classes');
      return { deletedCount: deleted };
    },
  };
}
