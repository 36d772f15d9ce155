import {
  normalizeText,
  type CreateDepartment,
  type Department,
  type DepartmentListQuery,
  type DepartmentListResponse,
  type UpdateDepartment,
} from '@doanhoi/shared';
import { and, asc, count, eq, inArray, ne } from 'drizzle-orm';
import { classes } from '../classes/schema';
import { audit } from '../lib/audit';
import type { Actor, Deps } from '../lib/context';
import { conflict, isUniqueViolation, notFound } from '../lib/errors';
import { cachedTotal, invalidateTotals, totalPages } from '../lib/totals';
import { users } from '../users/schema';
import { filterKey, searchTextLike } from './query';
import { departments } from './schema';

type Row = typeof departments.$inferSelect;

const CODE_TAKEN = 'Mã khoa/phòng ban đã tồn tại';
const NOT_FOUND = 'Không tìm thấy khoa/phòng ban';

function searchText(name: string, code: string | null): string {
  return normalizeText(`${name} ${code ?? ''}`);
}

/** What the audit log keeps of a department (no search column, no timestamps). */
function snapshot(r: Row) {
  return { id: r.id, name: r.name, code: r.code, description: r.description, isActive: r.isActive };
}

function toDepartment(r: Row, counts: { management: number; training: number }): Department {
  return {
    id: r.id,
    name: r.name,
    code: r.code,
    description: r.description,
    isActive: r.isActive,
    managementUsers: counts.management,
    trainingUsers: counts.training,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/**
 * The department catalogue. University-wide: no row scoping (routes require a global grant for
 * writes, see access.ts). Every write is audited in its transaction.
 */
export function departmentsService({ db }: Deps, actor: Actor, req: { ip: string | null; lang: 'vi' | 'en' }) {
  const caller = { actorId: actor.id, ip: req.ip };
  /** User counts per department for just these ids: two grouped queries on the users indexes. */
  function userCounts(ids: number[]) {
    const out = new Map<number, { management: number; training: number }>();
    for (const id of ids) out.set(id, { management: 0, training: 0 });
    if (ids.length === 0) return out;
    const management = db
      .select({ id: users.managementDepartmentId, n: count() })
      .from(users)
      .where(inArray(users.managementDepartmentId, ids))
      .groupBy(users.managementDepartmentId)
      .all();
    const training = db
      .select({ id: users.trainingDepartmentId, n: count() })
      .from(users)
      .where(inArray(users.trainingDepartmentId, ids))
      .groupBy(users.trainingDepartmentId)
      .all();
    for (const r of management) out.get(r.id!)!.management = r.n;
    for (const r of training) out.get(r.id!)!.training = r.n;
    return out;
  }

  function findRow(id: number): Row {
    const row = db.select().from(departments).where(eq(departments.id, id)).get();
    if (!row) notFound(NOT_FOUND);
    return row!;
  }

  function assertCodeFree(code: string | null | undefined, exceptId?: number) {
    if (!code) return;
    const cond = exceptId ? and(eq(departments.code, code), ne(departments.id, exceptId)) : eq(departments.code, code);
    if (db.select({ id: departments.id }).from(departments).where(cond).get()) conflict(CODE_TAKEN);
  }

  /** A race past assertCodeFree still ends as 409, not 500. */
  function write<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (isUniqueViolation(err)) conflict(CODE_TAKEN);
      throw err;
    }
  }

  function get(id: number): Department {
    const row = findRow(id);
    return toDepartment(row, userCounts([id]).get(id)!);
  }

  /** 409 naming the departments that still have classes (they would lose their department). */
  function refuseIfClasses(ids: number[]) {
    const used = db
      .select({ id: classes.departmentId, n: count() })
      .from(classes)
      .where(inArray(classes.departmentId, ids))
      .groupBy(classes.departmentId)
      .all();
    if (used.length === 0) return;
    const names = db
      .select({ id: departments.id, name: departments.name })
      .from(departments)
      .where(inArray(departments.id, used.map((u) => u.id!)))
      .all();
    const byId = new Map(names.map((d) => [d.id, d.name]));
    const list = used.map((u) => `${byId.get(u.id!)} (${u.n} lớp)`).join(', ');
    conflict(`Không thể xóa khoa/phòng ban còn lớp trực thuộc: ${list}. Hãy chuyển hoặc xóa các lớp trước`);
  }

  return {
    list(q: DepartmentListQuery): DepartmentListResponse {
      const search = normalizeText(q.search);
      const where = and(searchTextLike(departments.searchText, search), q.isActive === undefined ? undefined : eq(departments.isActive, q.isActive));
      const total = cachedTotal('departments', filterKey({ search, isActive: q.isActive }), () =>
        db.select({ n: count() }).from(departments).where(where).get()!.n,
      );
      const rows = db
        .select()
        .from(departments)
        .where(where)
        .orderBy(asc(departments.name), asc(departments.id))
        .limit(q.limit)
        .offset((q.page - 1) * q.limit)
        .all();
      const counts = userCounts(rows.map((r) => r.id));
      return {
        departments: rows.map((r) => toDepartment(r, counts.get(r.id)!)),
        total,
        page: q.page,
        limit: q.limit,
        totalPages: totalPages(total, q.limit),
      };
    },

    get,

    create(input: CreateDepartment): Department {
      const code = input.code ?? null;
      assertCodeFree(code);
      const row = write(() =>
        db.transaction((tx) => {
          const created = tx
            .insert(departments)
            .values({
              name: input.name,
              code,
              description: input.description ?? null,
              isActive: input.isActive ?? true,
              searchText: searchText(input.name, code),
            })
            .returning()
            .get();
          audit(tx, { ...caller, action: 'department.create', entity: 'department', entityId: created.id, after: snapshot(created) });
          return created;
        }),
      );
      invalidateTotals('departments');
      return toDepartment(row, { management: 0, training: 0 });
    },

    update(id: number, input: UpdateDepartment): Department {
      const before = findRow(id);
      assertCodeFree(input.code, id);
      const name = input.name ?? before.name;
      const code = input.code === undefined ? before.code : input.code;
      write(() =>
        db.transaction((tx) => {
          const after = tx
            .update(departments)
            .set({
              name,
              code,
              description: input.description === undefined ? before.description : input.description,
              isActive: input.isActive ?? before.isActive,
              searchText: searchText(name, code),
            })
            .where(eq(departments.id, id))
            .returning()
            .get();
          audit(tx, {
            ...caller,
            action: 'department.update',
            entity: 'department',
            entityId: id,
            before: snapshot(before),
            after: snapshot(after),
          });
        }),
      );
      invalidateTotals('departments');
      return get(id);
    },

    /** Users pointing at it keep their account; their department reference is cleared by the FK. */
    remove(id: number): void {
      const before = findRow(id);
      const counts = userCounts([id]).get(id)!;
      db.transaction((tx) => {
        refuseIfClasses([id]);
        tx.delete(departments).where(eq(departments.id, id)).run();
        audit(tx, {
          ...caller,
          action: 'department.delete',
          entity: 'department',
          entityId: id,
          before: { ...snapshot(before), managementUsers: counts.management, trainingUsers: counts.training },
        });
      });
      invalidateTotals('departments', 'users');
    },

    /** All or nothing: one department with classes refuses the whole request. Unknown ids are ignored. */
    bulkRemove(ids: number[]): { deletedCount: number } {
      const unique = [...new Set(ids)];
      const deleted = db.transaction((tx) => {
        const rows = tx.select().from(departments).where(inArray(departments.id, unique)).all();
        if (rows.length === 0) return 0;
        refuseIfClasses(rows.map((r) => r.id));
        tx.delete(departments).where(inArray(departments.id, rows.map((r) => r.id))).run();
        for (const r of rows) {
          audit(tx, { ...caller, action: 'department.bulk_delete', entity: 'department', entityId: r.id, before: snapshot(r) });
        }
        return rows.length;
      });
      if (deleted > 0) invalidateTotals('departments', 'users');
      return { deletedCount: deleted };
    },
  };
}
