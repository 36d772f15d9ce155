import {
  hasPermission,
  isSuperAdmin,
  memberDateIssues,
  type MemberRecord,
  type CreateUser,
  type UpdateUser,
  type UserDetail,
} from '@doanhoi/shared';
import { and, eq, inArray, ne } from 'drizzle-orm';
import { hashPassword } from '../lib/passwords';
import { classes } from '../db/tables/classes';
import { departments } from '../db/tables/departments';
import { audit } from '../audit/writer';
import type { Actor, Deps } from '../lib/context';
import { badRequest, conflict, conflictOnUnique, forbidden, notFound } from '../lib/errors';
import { translate } from '../lib/i18n';
import { memberOrganizations } from '../audit/organization';
import { pathIds } from '../access/organization-context';
import { organizationMembers } from '../db/tables/organizations';
import { loadRoleGrants } from '../access/grants';
import { markRevoked, revokeUserSessions } from '../access/revocation';
import { detailRow, type DetailRow } from './detail-row';
import { assertManageable } from './manage';
import { paidUserIds } from './paid';
import { holdsIn, organizationPath } from './listing';
import { snapshot, toUser } from '../access/user-mapper';
import { scopesReachPaths, scopesReachUser, userScope, usersInScope } from '../access/scope';
import { users } from '../db/tables/users';
import { userSearchText } from './search';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';
import { mapInOrder, someInOrder } from '../lib/in-order';

type Row = typeof users.$inferSelect;
export interface RequestInfo {
  ip: string | null;
  lang: 'vi' | 'en';
  /** The caller's own session, kept when they change their own e-mail or password here. */
  familyId?: string;
}

const NOT_FOUND = 'Không tìm thấy người dùng';

const codeTaken = (code: string) => `Mã "${code}" đã tồn tại`;
const emailTaken = (email: string) => `Email "${email}" đã tồn tại`;

/**
 * The users of the users screen, seen by one caller. A global grant (or super admin) reaches every
 * user; an organization grant reaches the active members of that organization and its subtree.
 * Users outside what the caller may see answer 404, so their existence does not leak.
 */
export function usersService({ db }: Deps, actor: Actor, req: RequestInfo) {
  const caller = { actorId: actor.id, ip: req.ip };

  /** 400 with the translated key, in the shape the validation hook uses. */
  function invalidField(path: string, key: string): never {
    const message = translate(key, req.lang);
    return badRequest(`${path}: ${message}`, { issues: [{ path, message }] });
  }

  /**
   * The user, if the caller may do `code` to them. Not visible at all (unknown, or outside the
   * users.access scope) → 404; visible but outside the scope of `code` → 403.
   */
  async function findTarget(id: number, code: string): Promise<Row> {
    const row = await firstRow(db.select().from(users).where(eq(users.id, id)));
    if (!row) notFound(NOT_FOUND);
    await assertReaches(id, code);
    return row!;
  }

  /** findTarget's checks, for a caller that reads the user its own way (the detail): an unknown id fails there. */
  async function assertReaches(id: number, code: string, activePaths?: string[]): Promise<void> {
    const scopes = [await userScope(db, actor, 'users.access'), await userScope(db, actor, code)];
    const [visible, allowed] = activePaths ? scopesReachPaths(scopes, activePaths) : await scopesReachUser(db, scopes, id);
    if (!visible) notFound(NOT_FOUND);
    if (!allowed) forbidden();
  }

  /** Only a super admin may change or delete a super admin's account (else a user manager could take it over). */
  async function guardSuperAdminTargets(ids: number[]) {
    if (actor.isSuperAdmin) return;
    if (await someInOrder(ids, async (id) => isSuperAdmin(await loadRoleGrants(db, id))))
      forbidden('Chỉ quản trị viên hệ thống mới được thay đổi tài khoản quản trị viên hệ thống');
  }

  /**
   * E-mail, password and the active flag hand over the account itself; the code (what imports
   * match on, and the default password), the names and the user type say who the account is
   * (issue 25 item 8). All follow manage.ts.
   */
  function takesControl(before: Row, input: UpdateUser): boolean {
    const changes = <K extends 'email' | 'code' | 'familyName' | 'givenName' | 'userType' | 'isActive'>(key: K) =>
      input[key] !== undefined && input[key] !== before[key];
    return !!input.password || (['email', 'code', 'familyName', 'givenName', 'userType', 'isActive'] as const).some(changes);
  }

  async function assertReferences(input: Pick<UpdateUser, 'classId' | 'managementDepartmentId' | 'trainingDepartmentId'>) {
    if (input.classId != null && !(await firstRow(db.select({ id: classes.id }).from(classes).where(eq(classes.id, input.classId))))) {
      invalidField('classId', 'validation.classInvalid');
    }
    for (const key of ['managementDepartmentId', 'trainingDepartmentId'] as const) {
      const id = input[key];
      if (id != null && !(await firstRow(db.select({ id: departments.id }).from(departments).where(eq(departments.id, id))))) {
        invalidField(key, 'validation.departmentInvalid');
      }
    }
  }

  async function assertUnique(code: string | undefined, email: string | undefined, exceptId?: number) {
    const others = exceptId === undefined ? undefined : ne(users.id, exceptId);
    if (
      code !== undefined &&
      (await firstRow(
        db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.code, code), others)),
      ))
    )
      conflict(codeTaken(code), 'code');
    if (
      email !== undefined &&
      (await firstRow(
        db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.email, email), others)),
      ))
    )
      conflict(emailTaken(email), 'email');
  }

  /** A race past assertUnique still ends as 409 naming the field. */
  const write = async <T>(fn: () => T | Promise<T>, code: string, email: string): Promise<T> =>
    await conflictOnUnique(
      (err) =>
        String(err.message).includes('users.email')
          ? { message: emailTaken(email), field: 'email' }
          : { message: codeTaken(code), field: 'code' },
      fn,
    );

  /** The member record as it will be: an edit's values over the stored ones; joining days after birth (400 on the field). */
  function memberRecordOf(input: Partial<Record<keyof MemberRecord, unknown>>, before?: Row): MemberRecord {
    const pick = <K extends keyof MemberRecord>(k: K) => (input[k] === undefined ? (before?.[k] ?? null) : (input[k] as MemberRecord[K]));
    const r: MemberRecord = {
      dateOfBirth: pick('dateOfBirth'),
      gender: pick('gender'),
      ethnicity: pick('ethnicity'),
      religion: pick('religion'),
      doanJoinedAt: pick('doanJoinedAt'),
      hoiJoinedAt: pick('hoiJoinedAt'),
      partyJoinedAt: pick('partyJoinedAt'),
      hometown: pick('hometown'),
    };
    const [issue] = memberDateIssues(r);
    if (issue) invalidField(issue.path, issue.key);
    return r;
  }

  /** Deleting would erase payment records with the account (cascade): refuse while any were paid (the answers' hasPaidFees). */
  async function refuseIfPaid(ids: number[]) {
    const paidIds = await paidUserIds(db, ids);
    if (paidIds.size === 0) return;
    const codes = await allRows(
      db
        .select({ code: users.code })
        .from(users)
        .where(inArray(users.id, [...paidIds])),
    );
    conflict(
      `Không thể xóa người dùng đã có khoản phí đã thanh toán: ${codes.map((c) => c.code).join(', ')}. Hãy ngừng kích hoạt tài khoản thay vì xóa`,
    );
  }

  /** The detail's answer from its row (users/detail-row.ts). */
  function detailOf(row: DetailRow): UserDetail {
    return {
      ...toUser(row),
      // The paths served the scope check; they are not part of the answer.
      organizations: row.memberships.map(({ path: _path, ...m }) => ({ ...m, joinedAt: m.joinedAt.toISOString() })),
      userRoles: row.roleLinks,
      hasPaidFees: row.paid,
    };
  }

  /** The user's detail as it reads now; 404 when there is no such user. */
  async function detail(id: number): Promise<UserDetail> {
    const row = await detailRow(db, id);
    if (!row) notFound(NOT_FOUND);
    return detailOf(row!);
  }

  return {
    async get(id: number): Promise<UserDetail> {
      // The scope check and the detail read one statement (the paths of the active memberships decide).
      const row = await detailRow(db, id);
      await assertReaches(
        id,
        'users.view_details',
        (row?.memberships ?? []).filter((m) => m.isActive).map((m) => m.path),
      );
      if (!row) notFound(NOT_FOUND);
      return detailOf(row!);
    },

    async create(input: CreateUser): Promise<UserDetail> {
      let path: string | null = null;
      if (input.organizationId !== undefined) {
        path = await organizationPath(db, input.organizationId);
        if (!path) invalidField('organizationId', 'validation.organizationInvalid');
        if (!holdsIn(actor, 'users.create', input.organizationId, path)) forbidden();
      } else if (!(await userScope(db, actor, 'users.create')).all) {
        // Without an organization the new user would be outside every organization this caller manages.
        forbidden('Bạn chỉ được tạo người dùng trong tổ chức mình quản lý: hãy chọn tổ chức');
      }
      await assertReferences(input);
      const record = memberRecordOf(input);
      await assertUnique(input.code, input.email);
      const passwordHash = input.password ? await hashPassword(input.password) : null;
      const id = await write(
        async () =>
          await withTransaction(db, async (tx) => {
            const created = await firstRow(
              tx
                .insert(users)
                .values({
                  code: input.code,
                  familyName: input.familyName,
                  givenName: input.givenName,
                  email: input.email,
                  phone: input.phone,
                  passwordHash,
                  // No password: the e-mail's local part once, then a new one (docs/decisions.md).
                  mustChangePassword: passwordHash === null,
                  userType: input.userType,
                  membershipStatus: input.membershipStatus,
                  isActive: input.isActive ?? true,
                  classId: input.classId ?? null,
                  managementDepartmentId: input.managementDepartmentId ?? null,
                  trainingDepartmentId: input.trainingDepartmentId ?? null,
                  ...record,
                  searchText: userSearchText(input),
                })
                .returning(),
            );
            // The organization and its parents (000 §4), as 'member' — but never above the caller's reach,
            // so whoever creates an account in their unit can still manage it (users/manage.ts).
            const chain = path ? pathIds(path) : [];
            const orgIds = chain.filter(
              (o, i) =>
                o === input.organizationId ||
                hasPermission(actor.roles, 'users.create', { organizationId: o, ancestorIds: chain.slice(0, i) }),
            );
            for (const organizationId of orgIds) {
              await runQuery(tx.insert(organizationMembers).values({ organizationId, userId: created.id, role: 'member' }));
            }
            await audit(tx, {
              ...caller,
              action: 'user.create',
              entity: 'user',
              entityId: created.id,
              after: { ...snapshot(created), organizationIds: orgIds },
            });
            return created.id;
          }),
        input.code,
        input.email,
      );
      return detail(id);
    },

    async update(id: number, input: UpdateUser): Promise<UserDetail> {
      const before = await findTarget(id, 'users.update');
      await guardSuperAdminTargets([id]);
      if (id === actor.id && input.isActive === false) conflict('Không thể ngừng kích hoạt tài khoản của chính bạn');
      const sensitive = takesControl(before, input);
      if (sensitive) await assertManageable(db, actor, [id], 'users.update');
      await assertReferences(input);
      const record = memberRecordOf(input, before);
      await assertUnique(input.code, input.email, id);
      const passwordHash = input.password ? await hashPassword(input.password) : undefined;
      const next = {
        code: input.code ?? before.code,
        familyName: input.familyName ?? before.familyName,
        givenName: input.givenName ?? before.givenName,
        email: input.email ?? before.email,
        phone: input.phone ?? before.phone,
      };
      const revoked = await write(
        async () =>
          await withTransaction(db, async (tx) => {
            const after = await firstRow(
              tx
                .update(users)
                .set({
                  ...next,
                  userType: input.userType ?? before.userType,
                  membershipStatus: input.membershipStatus ?? before.membershipStatus,
                  isActive: input.isActive ?? before.isActive,
                  classId: input.classId === undefined ? before.classId : input.classId,
                  managementDepartmentId:
                    input.managementDepartmentId === undefined ? before.managementDepartmentId : input.managementDepartmentId,
                  trainingDepartmentId: input.trainingDepartmentId === undefined ? before.trainingDepartmentId : input.trainingDepartmentId,
                  ...record,
                  searchText: userSearchText(next),
                  ...(passwordHash ? { passwordHash, mustChangePassword: false } : {}),
                })
                .where(eq(users.id, id))
                .returning(),
            );
            await audit(tx, {
              ...caller,
              action: 'user.update',
              entity: 'user',
              entityId: id,
              before: snapshot(before),
              after: snapshot(after),
            });
            // Whoever knew the old password or e-mail must not keep a session (the caller keeps their own).
            return sensitive ? await revokeUserSessions(tx, id, 'account_change', id === actor.id ? req.familyId : undefined) : [];
          }),
        next.code,
        next.email,
      );
      markRevoked(revoked);
      return detail(id);
    },

    async remove(id: number): Promise<void> {
      if (id === actor.id) conflict('Không thể xóa tài khoản của chính bạn');
      const before = await findTarget(id, 'users.delete');
      await guardSuperAdminTargets([id]);
      await assertManageable(db, actor, [id], 'users.delete');
      await refuseIfPaid([id]);
      await withTransaction(db, async (tx) => {
        // Read before the delete: its memberships go with it, and they say which auditors may see the row.
        const organizationIds = await memberOrganizations(tx, id);
        await runQuery(tx.delete(users).where(eq(users.id, id)));
        await audit(tx, { ...caller, action: 'user.delete', entity: 'user', entityId: id, before: snapshot(before), organizationIds });
      });
    },

    /** All or nothing: every id must be a user the caller may delete. */
    async bulkRemove(ids: number[]): Promise<{ deletedCount: number }> {
      const unique = [...new Set(ids)];
      if (unique.includes(actor.id)) conflict('Không thể xóa tài khoản của chính bạn: hãy bỏ chọn tài khoản đang đăng nhập');
      const rows = await allRows(db.select().from(users).where(inArray(users.id, unique)));
      const visible = await usersInScope(
        db,
        await userScope(db, actor, 'users.access'),
        rows.map((r) => r.id),
      );
      const missing = unique.length - rows.filter((r) => visible.has(r.id)).length;
      if (missing > 0) notFound(`Không tìm thấy ${missing} người dùng đã chọn`);
      const deletable = await usersInScope(db, await userScope(db, actor, 'users.delete'), unique);
      if (deletable.size < unique.length) forbidden('Bạn không có quyền xóa một số người dùng đã chọn');
      await guardSuperAdminTargets(unique);
      await assertManageable(db, actor, unique, 'users.delete');
      await refuseIfPaid(unique);
      await withTransaction(db, async (tx) => {
        const memberships = new Map(await mapInOrder(rows, async (r) => [r.id, await memberOrganizations(tx, r.id)]));
        await runQuery(tx.delete(users).where(inArray(users.id, unique)));
        for (const r of rows)
          await audit(tx, {
            ...caller,
            action: 'user.bulk_delete',
            entity: 'user',
            entityId: r.id,
            before: snapshot(r),
            organizationIds: memberships.get(r.id),
          });
      });
      return { deletedCount: rows.length };
    },
  };
}
