import {
  hasPermission,
  normalizeText,
  type CreateRole,
  type Permission,
  type Role,
  type RoleBulkDeleteResponse,
  type RoleDeleteResponse,
  type RoleDetail,
  type RoleListQuery,
  type RoleListResponse,
  type SeedDefaultRolesResponse,
  type UpdateRole,
} from '@doanhoi/shared';
import { and, asc, count, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { revokeLostSuperAdmins } from '../access/revocation';
import { superAdminIds } from '../access/grants';
import type { Db } from '../db/client';
import { seedDefaultRoles } from './defaults';
import { filterKey, searchTextLike } from '../lib/text-filter';
import { audit } from '../audit/writer';
import type { Actor, Deps } from '../lib/context';
import { badRequest, conflict, conflictOnUnique, forbidden, notFound } from '../lib/errors';
import { cachedTotal, totalPages } from '../lib/totals';
import { activeCodesByRole, availablePermissions, permissionCodes, permissionsOfRole, roleSearchText } from './permissions';
import { rolePermissions, roles } from '../db/tables/roles';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';

type Row = typeof roles.$inferSelect;
type CountedRow = Row & { permissionCount: number; assignmentCount: number };

const NOT_FOUND = 'Không tìm thấy vai trò';
const nameTaken = (name: string) => `Mã vai trò "${name}" đã tồn tại`;

/**
 * Counts computed by the page query itself (correlated subqueries on the role_id indexes), never
 * per row in JS. Written out because drizzle leaves the outer "roles"."id" unqualified in a select list;
 * `true` is a keyword of both engines (1 on SQLite), where a bound JS boolean would not bind on better-sqlite3.
 */
const countedColumns = {
  ...getTableColumns(roles),
  permissionCount: sql<number>`(select count(*) from "role_permissions" rp inner join "permissions" p on p."id" = rp."permission_id" where rp."role_id" = "roles"."id" and p."is_active" = true)`,
  assignmentCount: sql<number>`(select count(*) from "user_roles" ur where ur."role_id" = "roles"."id")`,
};

function toRole(r: CountedRow): Role {
  return {
    id: r.id,
    name: r.name,
    displayName: r.displayName,
    description: r.description,
    isActive: r.isActive,
    isSystemRole: r.isSystemRole,
    permissionCount: r.permissionCount,
    assignmentCount: r.assignmentCount,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** What the audit log keeps of a role. */
function snapshot(r: Row, codes: string[]) {
  return { id: r.id, name: r.name, displayName: r.displayName, description: r.description, isActive: r.isActive, permissions: codes };
}

/**
 * Roles and their permissions (000 §2 /permissions). Roles are not owned by organizations: the
 * routes need permissions.* codes, which count only from global roles. Every write is audited in
 * its transaction (cached actors follow the roles tables' versions).
 */
export function rolesService({ db }: Deps, actor: Actor, req: { ip: string | null }) {
  const caller = { actorId: actor.id, ip: req.ip };

  async function findRow(id: number): Promise<Row> {
    const row = await firstRow(db.select().from(roles).where(eq(roles.id, id)));
    if (!row) notFound(NOT_FOUND);
    return row!;
  }

  async function counted(id: number): Promise<CountedRow> {
    const row = await firstRow(db.select(countedColumns).from(roles).where(eq(roles.id, id)));
    if (!row) notFound(NOT_FOUND);
    return row!;
  }

  /** Codes of the requested permissions; 400 naming any id that does not exist. */
  async function resolvePermissions(ids: number[]): Promise<string[]> {
    const codes = await permissionCodes(db, ids);
    const unknown = ids.filter((id) => !codes.has(id));
    if (unknown.length) badRequest(`Quyền không tồn tại: ${unknown.join(', ')}`);
    return ids.map((id) => codes.get(id)!);
  }

  /**
   * No one but a super admin may make a role confer a permission they do not hold globally:
   * otherwise a role editor could add system.access_admin to a role they hold and become super admin.
   */
  function guardConferred(codes: string[]) {
    const missing = codes.filter((c) => !hasPermission(actor.roles, c, null));
    if (missing.length) forbidden(`Bạn không thể trao quyền mà chính bạn không có: ${missing.join(', ')}`);
  }

  function refuseSystemRoles(rows: Row[], message: string) {
    const system = rows.filter((r) => r.isSystemRole);
    if (system.length) conflict(`${message}: ${system.map((r) => r.displayName).join(', ')}`);
  }

  async function get(id: number): Promise<RoleDetail> {
    return { ...toRole(await counted(id)), permissions: await permissionsOfRole(db, id) };
  }

  return {
    async list(q: RoleListQuery): Promise<RoleListResponse> {
      const search = normalizeText(q.search);
      const where = and(searchTextLike(roles.searchText, search), q.isActive === undefined ? undefined : eq(roles.isActive, q.isActive));
      const total = await cachedTotal(
        db,
        ['roles'],
        filterKey({ search, isActive: q.isActive }),
        async () => (await firstRow(db.select({ n: count() }).from(roles).where(where)))!.n,
      );
      const rows = await allRows(
        db
          .select(countedColumns)
          .from(roles)
          .where(where)
          .orderBy(asc(roles.name), asc(roles.id))
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
      );
      return { data: rows.map(toRole), total, page: q.page, limit: q.limit, totalPages: totalPages(total, q.limit) };
    },

    get,

    async availablePermissions(): Promise<Permission[]> {
      return availablePermissions(db);
    },

    async create(input: CreateRole): Promise<RoleDetail> {
      if (await firstRow(db.select({ id: roles.id }).from(roles).where(eq(roles.name, input.name))))
        conflict(nameTaken(input.name), 'name');
      const codes = await resolvePermissions(input.permissionIds);
      const isActive = input.isActive ?? true;
      // Inactive too: a role stored now is switched on later, perhaps by someone who does not look.
      if (!actor.isSuperAdmin) guardConferred(codes);
      // A race past the name pre-check still ends as 409.
      const id = await conflictOnUnique(
        { message: nameTaken(input.name), field: 'name' },
        async () =>
          await withTransaction(db, async (tx) => {
            const row = await firstRow(
              tx
                .insert(roles)
                .values({
                  name: input.name,
                  displayName: input.displayName,
                  description: input.description,
                  isActive,
                  searchText: roleSearchText(input.name, input.displayName),
                })
                .returning(),
            );
            for (const permissionId of input.permissionIds)
              await runQuery(tx.insert(rolePermissions).values({ roleId: row.id, permissionId }));
            await audit(tx, { ...caller, action: 'role.create', entity: 'role', entityId: row.id, after: snapshot(row, codes) });
            return row.id;
          }),
      );
      return get(id);
    },

    async update(id: number, input: UpdateRole): Promise<RoleDetail> {
      const before = await findRow(id);
      if (input.name !== undefined && input.name !== before.name) badRequest('Mã vai trò không thể thay đổi sau khi tạo');
      if (before.isSystemRole) {
        conflict(input.isActive === false ? 'Không thể ngừng kích hoạt vai trò hệ thống' : 'Không thể chỉnh sửa vai trò hệ thống');
      }
      const beforeCodes = (await activeCodesByRole(db, [id])).get(id)!;
      const codes = input.permissionIds ? await resolvePermissions(input.permissionIds) : beforeCodes;
      const isActive = input.isActive ?? before.isActive;
      if (!actor.isSuperAdmin) {
        // Activating a role confers all of it again; otherwise what is added, even to an inactive role
        // (it would be stored for whoever switches the role on later).
        guardConferred(isActive && !before.isActive ? codes : codes.filter((c) => !beforeCodes.includes(c)));
      }
      const supers = await superAdminIds(db);
      await withTransaction(db, async (tx) => {
        const after = await firstRow(
          tx
            .update(roles)
            .set({
              displayName: input.displayName,
              description: input.description,
              isActive,
              searchText: roleSearchText(before.name, input.displayName),
            })
            .where(eq(roles.id, id))
            .returning(),
        );
        if (input.permissionIds) {
          await runQuery(tx.delete(rolePermissions).where(eq(rolePermissions.roleId, id)));
          for (const permissionId of input.permissionIds) await runQuery(tx.insert(rolePermissions).values({ roleId: id, permissionId }));
        }
        await audit(tx, {
          ...caller,
          action: 'role.update',
          entity: 'role',
          entityId: id,
          before: snapshot(before, beforeCodes),
          after: snapshot(after, codes),
        });
      });
      await revokeLostSuperAdmins(db, supers);
      return get(id);
    },

    /** The role's user links go with it (foreign key cascade); the answer says how many. */
    async remove(id: number): Promise<RoleDeleteResponse> {
      const before = await counted(id);
      if (before.isSystemRole) conflict('Không thể xóa vai trò hệ thống');
      const codes = (await activeCodesByRole(db, [id])).get(id)!;
      const supers = await superAdminIds(db);
      await withTransaction(db, async (tx) => {
        await runQuery(tx.delete(roles).where(eq(roles.id, id)));
        await audit(tx, {
          ...caller,
          action: 'role.delete',
          entity: 'role',
          entityId: id,
          before: { ...snapshot(before, codes), assignmentCount: before.assignmentCount },
        });
      });
      await revokeLostSuperAdmins(db, supers);
      return { message: `Đã xóa vai trò "${before.displayName}"`, deletedUserRoleAssignments: before.assignmentCount };
    },

    /** All or nothing: one system role refuses the whole request. Unknown ids are ignored. */
    async bulkRemove(ids: number[]): Promise<RoleBulkDeleteResponse> {
      const unique = [...new Set(ids)];
      const supers = await superAdminIds(db);
      const result = await withTransaction(db, async (tx) => {
        const rows = await allRows(tx.select(countedColumns).from(roles).where(inArray(roles.id, unique)));
        if (rows.length === 0) return { deletedRoles: 0, deletedUserRoleAssignments: 0 };
        refuseSystemRoles(rows, 'Không thể xóa vai trò hệ thống');
        const codes = await activeCodesByRole(
          tx,
          rows.map((r) => r.id),
        );
        await runQuery(
          tx.delete(roles).where(
            inArray(
              roles.id,
              rows.map((r) => r.id),
            ),
          ),
        );
        for (const r of rows) {
          await audit(tx, {
            ...caller,
            action: 'role.delete',
            entity: 'role',
            entityId: r.id,
            before: { ...snapshot(r, codes.get(r.id)!), assignmentCount: r.assignmentCount },
          });
        }
        return { deletedRoles: rows.length, deletedUserRoleAssignments: rows.reduce((n, r) => n + r.assignmentCount, 0) };
      });
      await revokeLostSuperAdmins(db, supers);
      return result;
    },

    /** Re-seeds the default roles (docs/decisions.md: never overwrites roles an administrator edited). */
    async seedDefaults(): Promise<SeedDefaultRolesResponse> {
      const result = await withTransaction(db, async (tx) => {
        // seedDefaultRoles opens its own transaction: on tx it is a savepoint inside this one.
        const seeded = await seedDefaultRoles(tx as unknown as Db);
        const touched = [...seeded.created, ...seeded.updated];
        if (touched.length) {
          for (const r of await allRows(tx.select().from(roles).where(inArray(roles.name, touched)))) {
            await runQuery(
              tx
                .update(roles)
                .set({ searchText: roleSearchText(r.name, r.displayName) })
                .where(eq(roles.id, r.id)),
            );
          }
        }
        await audit(tx, { ...caller, action: 'role.seed_defaults', entity: 'role', after: seeded });
        return seeded;
      });
      return {
        message: `Đã tạo ${result.created.length} vai trò mặc định, bổ sung quyền cho ${result.updated.length} vai trò hệ thống`,
        ...result,
      };
    },
  };
}
