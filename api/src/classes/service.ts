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
import { and, asc, desc, eq, type SQL } from 'drizzle-orm';
import { searchTextLike } from '../lib/text-filter';
import { departments } from '../db/tables/departments';
import { catalogueStore, countsPer, pageInfo, paginate } from '../departments/catalogue';
import type { Actor, Deps } from '../lib/context';
import { badRequest, conflict, notFound } from '../lib/errors';
import { translate } from '../lib/i18n';
import { scopeCondition, userScope } from '../access/scope';
import { users } from '../db/tables/users';
import { classes } from '../db/tables/classes';
import { allRows, firstRow } from '../db/engine';

type Row = typeof classes.$inferSelect;
type Dept = { id: number; name: string; code: string | null } | null;

const NOT_FOUND = 'Không tìm thấy lớp';

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
  const store = catalogueStore(
    db,
    { actorId: actor.id, ip: req.ip },
    {
      table: classes,
      entity: 'class',
      totals: 'classes',
      notFound: NOT_FOUND,
      codeTaken: 'Mã lớp đã tồn tại',
      snapshot,
    },
  );
  const deptColumns = { id: departments.id, name: departments.name, code: departments.code };

  /** Student counts for just these classes: one grouped query on users_class_idx. */
  async function studentCounts(ids: number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>(ids.map((id) => [id, 0]));
    for (const r of await countsPer(db, users, users.classId, ids)) out.set(r.id, r.n);
    return out;
  }

  async function assertDepartment(departmentId: number | null | undefined) {
    if (departmentId == null) return;
    if (!(await firstRow(db.select({ id: departments.id }).from(departments).where(eq(departments.id, departmentId))))) {
      // Same shape as the validation hook, so the form shows it on the department field.
      const message = translate('validation.departmentInvalid', req.lang);
      badRequest(`departmentId: ${message}`, { issues: [{ path: 'departmentId', message }] });
    }
  }

  /**
   * Names and e-mails are personal data: a global grant sees every student of the class, an
   * org-scoped one only the active members of its organizations' subtrees (the same reach as the
   * users list); studentCount stays the class total.
   */
  async function visibleStudents(): Promise<SQL | undefined> {
    return scopeCondition(db, await userScope(db, actor, 'classes.view_details'));
  }

  async function get(id: number): Promise<ClassDetail> {
    const found = await firstRow(
      db
        .select({ row: classes, department: deptColumns })
        .from(classes)
        .leftJoin(departments, eq(departments.id, classes.departmentId))
        .where(eq(classes.id, id)),
    );
    if (!found) notFound(NOT_FOUND);
    const students = (
      await allRows(
        db
          .select({ id: users.id, code: users.code, familyName: users.familyName, givenName: users.givenName, email: users.email })
          .from(users)
          .where(and(eq(users.classId, id), await visibleStudents()))
          .orderBy(asc(users.givenName), asc(users.familyName), asc(users.id)),
      )
    ).map((s) => ({ ...s, fullName: fullName(s) }));
    const total = (await studentCounts([id])).get(id)!;
    return { ...toClass(found!.row, found!.department, total), students };
  }

  /** 409 naming the classes that still have students: deleting would silently unassign them. */
  async function refuseIfStudents(rows: Row[]) {
    const counts = await studentCounts(rows.map((r) => r.id));
    const busy = rows.filter((r) => counts.get(r.id)! > 0);
    if (busy.length === 0) return;
    const list = busy.map((r) => `${r.name} (${counts.get(r.id)} sinh viên)`).join(', ');
    conflict(`Không thể xóa lớp còn sinh viên: ${list}. Hãy chuyển sinh viên sang lớp khác trước`);
  }

  return {
    async list(q: ClassListQuery): Promise<ClassListResponse> {
      const search = normalizeText(q.search);
      const where = and(
        searchTextLike(classes.searchText, search),
        q.year === undefined ? undefined : eq(classes.year, q.year),
        q.departmentId === undefined ? undefined : eq(classes.departmentId, q.departmentId),
        q.isActive === undefined ? undefined : eq(classes.isActive, q.isActive),
      );
      const total = await store.total({ search, year: q.year, departmentId: q.departmentId, isActive: q.isActive }, where);
      const query = db
        .select({ row: classes, department: deptColumns })
        .from(classes)
        .leftJoin(departments, eq(departments.id, classes.departmentId))
        .where(where)
        .orderBy(desc(classes.year), asc(classes.name), asc(classes.id));
      const rows = await allRows(paginate(query.$dynamic(), q));
      const counts = await studentCounts(rows.map((r) => r.row.id));
      return { classes: rows.map((r) => toClass(r.row, r.department, counts.get(r.row.id)!)), ...pageInfo(total, q) };
    },

    get,

    async create(input: CreateClass): Promise<ClassDetail> {
      await assertDepartment(input.departmentId);
      const created = await store.create({
        name: input.name,
        code: input.code ?? null,
        year: input.year,
        departmentId: input.departmentId ?? null,
        isActive: input.isActive ?? true,
      });
      return get(created.id);
    },

    async update(id: number, input: UpdateClass): Promise<ClassDetail> {
      const before = await store.findRow(id);
      await assertDepartment(input.departmentId);
      await store.update(before, input, {
        year: input.year ?? before.year,
        departmentId: input.departmentId === undefined ? before.departmentId : input.departmentId,
        isActive: input.isActive ?? before.isActive,
      });
      return get(id);
    },

    async remove(id: number): Promise<void> {
      await store.remove(id, (row) => refuseIfStudents([row]));
    },

    /** One class with students refuses the whole request. */
    async bulkRemove(ids: number[]): Promise<{ deletedCount: number }> {
      return store.bulkRemove(ids, refuseIfStudents);
    },
  };
}
