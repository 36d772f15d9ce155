/** Users import (000 §3 columns, §5 rules): create or update users, with memberships and their parents. */
import {
  EMAIL_PATTERN,
  hasPermission,
  normalizeText,
  PASSWORD_MIN,
  PHONE_PATTERN,
  USER_IMPORT_COLUMNS,
  type MembershipStatus,
  type UserType,
} from '@doanhoi/shared';
import { and, eq } from 'drizzle-orm';
import { hashPassword } from '../../auth/passwords';
import { organizationMembers } from '../../organizations/schema';
import { userSearchText } from '../../users/search';
import { users } from '../../users/schema';
import type { ImportKindDef } from '../kind';
import { ancestorsAndSelf, classKeys, departmentCodes, organizationsByCode, whereIn } from '../lookups';

const USER_TYPE_ALIASES: Record<string, UserType> = { student: 'student', 'sinh vien': 'student', staff: 'staff', 'can bo': 'staff' };
const MEMBERSHIP_ALIASES: Record<string, MembershipStatus> = {
  none: 'none',
  khong: 'none',
  doan_vien: 'doan_vien',
  'doan vien': 'doan_vien',
  hoi_vien: 'hoi_vien',
  'hoi vien': 'hoi_vien',
  both: 'both',
  'doan vien va hoi vien': 'both',
  'doan vien, hoi vien': 'both',
};

export interface UserRowData {
  code: string;
  familyName: string;
  givenName: string;
  email: string;
  phone: string | null;
  /** null: the default password (no hash, must change at first sign-in). */
  password: string | null;
  passwordHash?: string | null;
  userType: UserType;
  membershipStatus: MembershipStatus;
  classId: number | null;
  managementDepartmentId: number | null;
  trainingDepartmentId: number | null;
  organizationIds: number[];
  organizationPaths: string[];
  /** Which columns the file had, so an update touches only those. */
  present: string[];
}

export const usersImport: ImportKindDef<UserRowData> = {
  kind: 'users',
  sheetName: 'Người dùng',
  templateName: () => 'users_import_template.xlsx',
  columns: () => USER_IMPORT_COLUMNS,
  tables: ['users', 'organization_members'],

  check(db, rows, actor) {
    const classMap = classKeys(db);
    const deptMap = departmentCodes(db);
    const orgCodes = rows.flatMap((r) => (r.values.organizationCodes ?? '').split(/[,;]/).map((c) => c.trim().toLowerCase()));
    const orgMap = organizationsByCode(db, orgCodes);
    const byCode = new Map<string, number>();
    const byEmail = new Map<string, number>();
    for (const u of whereIn(rows.map((r) => (r.values.code ?? '').trim()), users.code, (c) => db.select({ id: users.id, code: users.code }).from(users).where(c).all())) byCode.set(u.code, u.id);
    for (const u of whereIn(rows.map((r) => (r.values.email ?? '').trim().toLowerCase()), users.email, (c) => db.select({ id: users.id, email: users.email }).from(users).where(c).all())) byEmail.set(u.email, u.id);
    const canCreateGlobally = hasPermission(actor.roles, 'users.create', null);
    const seenCode = new Map<string, number>();
    const seenEmail = new Map<string, number>();

    return rows.map(({ rowNumber, values: v }) => {
      const errors: string[] = [];
      const warnings: string[] = [];
      const code = (v.code ?? '').trim();
      const familyName = (v.familyName ?? '').trim();
      const givenName = (v.givenName ?? '').trim();
      const email = (v.email ?? '').trim().toLowerCase();
      if (!code) errors.push('Thiếu mã số');
      if (!familyName) errors.push('Thiếu họ');
      if (!givenName) errors.push('Thiếu tên');
      if (!email) errors.push('Thiếu email');
      else if (!EMAIL_PATTERN.test(email)) errors.push(`Email không hợp lệ: ${email}`);
      const phoneRaw = (v.phone ?? '').replace(/\s+/g, '');
      if (phoneRaw && !PHONE_PATTERN.test(phoneRaw)) errors.push('Số điện thoại phải có 10 hoặc 11 chữ số');
      const pw = (v.password ?? '').trim();
      const password = pw === '' || pw === '-' ? null : pw;
      if (password !== null && password.length < PASSWORD_MIN) errors.push(`Mật khẩu phải có ít nhất ${PASSWORD_MIN} ký tự`);
      if (password === null && 'password' in v) warnings.push('Mật khẩu mặc định là phần trước @ của email (phải đổi khi đăng nhập lần đầu)');
      const userType = v.userType ? USER_TYPE_ALIASES[normalizeText(v.userType)] : 'student';
      if (!userType) errors.push(`Loại người dùng không hợp lệ: ${v.userType} (student hoặc staff)`);
      const membershipStatus = v.membershipStatus ? MEMBERSHIP_ALIASES[normalizeText(v.membershipStatus)] : 'none';
      if (!membershipStatus) errors.push(`Trạng thái đoàn viên/hội viên không hợp lệ: ${v.membershipStatus}`);
      const lookup = (raw: string | undefined, map: Map<string, number>, label: string) => {
        if (!raw?.trim()) return null;
        const id = map.get(normalizeText(raw));
        if (id == null) errors.push(`Không tìm thấy ${label}: ${raw}`);
        return id ?? null;
      };
      const classId = lookup(v.className, classMap, 'lớp');
      const managementDepartmentId = lookup(v.managementDepartmentCode, deptMap, 'khoa quản lý');
      const trainingDepartmentId = lookup(v.trainingDepartmentCode, deptMap, 'khoa đào tạo');
      const organizationIds: number[] = [];
      const organizationPaths: string[] = [];
      for (const c of (v.organizationCodes ?? '').split(/[,;]/).map((x) => x.trim()).filter(Boolean)) {
        const found = orgMap.get(c.toLowerCase()) ?? [];
        if (found.length === 0) errors.push(`Không tìm thấy tổ chức có mã ${c}`);
        else if (found.length > 1) errors.push(`Mã tổ chức ${c} trùng ở nhiều loại tổ chức`);
        else {
          const o = found[0]!;
          const ids = ancestorsAndSelf(o.path);
          if (!hasPermission(actor.roles, 'users.create', { organizationId: o.id, ancestorIds: ids.filter((x) => x !== o.id) })) {
            errors.push(`Bạn không có quyền thêm người dùng vào tổ chức ${c}`);
          }
          organizationIds.push(o.id);
          organizationPaths.push(o.path);
        }
      }
      if (!canCreateGlobally && organizationIds.length === 0) errors.push('Bạn chỉ có thể nhập người dùng vào tổ chức mình quản lý: cần cột Mã tổ chức');

      let duplicate = false;
      if (code && seenCode.has(code)) {
        duplicate = true;
        errors.push(`Mã số ${code} trùng với dòng ${seenCode.get(code)}`);
      }
      if (email && seenEmail.has(email)) {
        duplicate = true;
        errors.push(`Email ${email} trùng với dòng ${seenEmail.get(email)}`);
      }
      if (code && !seenCode.has(code)) seenCode.set(code, rowNumber);
      if (email && !seenEmail.has(email)) seenEmail.set(email, rowNumber);

      const idByCode = code ? byCode.get(code) : undefined;
      const idByEmail = email ? byEmail.get(email) : undefined;
      let existingId: number | null = null;
      if (idByCode != null && idByEmail != null && idByCode !== idByEmail) errors.push('Mã số và email thuộc về hai người dùng khác nhau');
      else if (idByCode != null || idByEmail != null) {
        existingId = (idByCode ?? idByEmail)!;
        warnings.push(`Đã có người dùng với ${idByCode != null ? `mã số ${code}` : `email ${email}`}: cập nhật nếu chọn "Cập nhật dữ liệu đã có", nếu không sẽ bỏ qua`);
      }
      return {
        rowNumber,
        errors,
        warnings,
        duplicate,
        existingId,
        data: {
          code,
          familyName,
          givenName,
          email,
          phone: phoneRaw || null,
          password,
          userType: userType ?? 'student',
          membershipStatus: membershipStatus ?? 'none',
          classId,
          managementDepartmentId,
          trainingDepartmentId,
          organizationIds,
          organizationPaths,
          present: Object.keys(v),
        },
      };
    });
  },

  /** Explicit passwords are hashed with argon2's async API (libuv pool), off the event loop. */
  async prepare(rows) {
    await Promise.all(rows.map(async (r) => (r.data.passwordHash = r.data.password ? await hashPassword(r.data.password) : null)));
  },

  write(tx, row, _options, actor) {
    const d = row.data;
    let outcome: 'created' | 'updated' | 'unchanged' = 'unchanged';
    let userId = row.existingId;
    if (userId == null) {
      const base = { code: d.code, familyName: d.familyName, givenName: d.givenName, email: d.email, phone: d.phone };
      userId = tx
        .insert(users)
        .values({
          ...base,
          passwordHash: d.passwordHash ?? null,
          mustChangePassword: d.passwordHash == null,
          userType: d.userType,
          membershipStatus: d.membershipStatus,
          classId: d.classId,
          managementDepartmentId: d.managementDepartmentId,
          trainingDepartmentId: d.trainingDepartmentId,
          searchText: userSearchText(base),
        })
        .returning({ id: users.id })
        .get().id;
      outcome = 'created';
    } else {
      const cur = tx.select().from(users).where(eq(users.id, userId)).get()!;
      const has = (k: string) => d.present.includes(k);
      const next = {
        code: d.code,
        familyName: d.familyName,
        givenName: d.givenName,
        email: d.email,
        phone: has('phone') ? d.phone : cur.phone,
        userType: has('userType') ? d.userType : cur.userType,
        membershipStatus: has('membershipStatus') ? d.membershipStatus : cur.membershipStatus,
        classId: has('className') ? d.classId : cur.classId,
        managementDepartmentId: has('managementDepartmentCode') ? d.managementDepartmentId : cur.managementDepartmentId,
        trainingDepartmentId: has('trainingDepartmentCode') ? d.trainingDepartmentId : cur.trainingDepartmentId,
      };
      const changed = (Object.keys(next) as (keyof typeof next)[]).some((k) => next[k] !== cur[k]) || d.passwordHash != null;
      if (changed) {
        tx.update(users)
          .set({ ...next, ...(d.passwordHash ? { passwordHash: d.passwordHash, mustChangePassword: false } : {}), searchText: userSearchText(next) })
          .where(eq(users.id, userId))
          .run();
        outcome = 'updated';
      }
    }
    for (const path of d.organizationPaths) {
      for (const orgId of ancestorsAndSelf(path)) {
        const exists = tx
          .select({ id: organizationMembers.id })
          .from(organizationMembers)
          .where(and(eq(organizationMembers.organizationId, orgId), eq(organizationMembers.userId, userId)))
          .get();
        if (!exists) {
          tx.insert(organizationMembers).values({ organizationId: orgId, userId, role: 'member' }).run();
          if (outcome === 'unchanged') outcome = 'updated';
        }
      }
    }
    void actor;
    return outcome;
  },
};
