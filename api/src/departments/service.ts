import {
  normalizeText,
  type CreateDepartment,
  type Department,
  type DepartmentListQuery,
  type DepartmentListResponse,
  type UpdateDepartment,
} from '@doanhoi/shared';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { classes } from '../db/tables/classes';
import { catalogueStore, countsPer, pageInfo, paginate } from './catalogue';
import type { Actor, Deps } from '../lib/context';
import { conflict } from '../lib/errors';
import { users } from '../db/tables/users';
import { searchTextLike } from '../lib/text-filter';
import { departments } from '../db/tables/departments';
import { allRows } from '../db/engine';

type Row = typeof departments.$inferSelect;
/** Users pointing at a department, and its classes (which make DELETE refuse). */
type Counts = { management: number; training: number; classes: number };

/** What the audit log keeps of a department (no search column, no timestamps). */
function snapshot(r: Row) {
  return { id: r.id, name: r.name, code: r.code, description: r.description, isActive: r.isActive };
}

function toDepartment(r: Row, counts: Counts): Department {
  return {
    id: r.id,
    name: r.name,
    code: r.code,
    description: r.description,
    isActive: r.isActive,
    managementUsers: counts.management,
    trainingUsers: counts.training,
    classCount: counts.classes,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/**
 * The department catalogue. University-wide: no row scoping (routes require a global grant for
 * writes, see access.ts). Every write is audited in its transaction.
 */
export function departmentsService({ db }: Deps, actor: Actor, req: { ip: string | null; lang: 'vi' | 'en' }) {
  const store = catalogueStore(
    db,
    { actorId: actor.id, ip: req.ip },
    {
      table: departments,
      entity: 'department',
      totals: 'departments',
      notFound: 'Không tìm thấy khoa/phòng ban',
      codeTaken: 'Mã khoa/phòng ban đã tồn tại',
      snapshot,
    },
  );

  /** User and class counts per department for just these ids: three grouped queries on their indexes. */
  async function userCounts(ids: number[]) {
    const out = new Map<number, Counts>();
    for (const id of ids) out.set(id, { management: 0, training: 0, classes: 0 });
    for (const r of await countsPer(db, users, users.managementDepartmentId, ids)) out.get(r.id)!.management = r.n;
    for (const r of await countsPer(db, users, users.trainingDepartmentId, ids)) out.get(r.id)!.training = r.n;
    for (const r of await countsPer(db, classes, classes.departmentId, ids)) out.get(r.id)!.classes = r.n;
    return out;
  }

  async function get(id: number): Promise<Department> {
    const row = await store.findRow(id);
    return toDepartment(row, (await userCounts([id])).get(id)!);
  }

  /** 409 naming the departments that still have classes (they would lose their department). */
  async function refuseIfClasses(ids: number[]) {
    const used = await countsPer(db, classes, classes.departmentId, ids);
    if (used.length === 0) return;
    const names = await allRows(
      db
        .select({ id: departments.id, name: departments.name })
        .from(departments)
        .where(
          inArray(
            departments.id,
            used.map((u) => u.id),
          ),
        ),
    );
    const byId = new Map(names.map((d) => [d.id, d.name]));
    const list = used.map((u) => `${byId.get(u.id)} (${u.n} lớp)`).join(', ');
    conflict(`Không thể xóa khoa/phòng ban còn lớp trực thuộc: ${list}. Hãy chuyển hoặc xóa các lớp trước`);
  }

  return {
    async list(q: DepartmentListQuery): Promise<DepartmentListResponse> {
      const search = normalizeText(q.search);
      const where = and(
        searchTextLike(departments.searchText, search),
        q.isActive === undefined ? undefined : eq(departments.isActive, q.isActive),
      );
      const total = await store.total({ search, isActive: q.isActive }, where);
      const query = db.select().from(departments).where(where).orderBy(asc(departments.name), asc(departments.id));
      const rows = await allRows(paginate(query.$dynamic(), q));
      const counts = await userCounts(rows.map((r) => r.id));
      return { departments: rows.map((r) => toDepartment(r, counts.get(r.id)!)), ...pageInfo(total, q) };
    },

    get,

    async create(input: CreateDepartment): Promise<Department> {
      const row = await store.create({
        name: input.name,
        code: input.code ?? null,
        description: input.description ?? null,
        isActive: input.isActive ?? true,
      });
      return toDepartment(row, { management: 0, training: 0, classes: 0 });
    },

    async update(id: number, input: UpdateDepartment): Promise<Department> {
      const before = await store.findRow(id);
      await store.update(before, input, {
        description: input.description === undefined ? before.description : input.description,
        isActive: input.isActive ?? before.isActive,
      });
      return get(id);
    },

    /** Users pointing at it keep their account; their department reference is cleared by the FK. */
    async remove(id: number): Promise<void> {
      await store.remove(
        id,
        (row) => refuseIfClasses([row.id]),
        async (row) => {
          const counts = (await userCounts([row.id])).get(row.id)!;
          return { ...snapshot(row), managementUsers: counts.management, trainingUsers: counts.training };
        },
      );
    },

    /** One department with classes refuses the whole request. */
    async bulkRemove(ids: number[]): Promise<{ deletedCount: number }> {
      return store.bulkRemove(ids, (rows) => refuseIfClasses(rows.map((r) => r.id)));
    },
  };
}
