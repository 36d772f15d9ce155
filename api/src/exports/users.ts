/** Users and organization-member exports: keyset-paged reads (id > last), so 100k rows stream in flat memory. */
import { fullName, permissionScope, type RoleGrant } from '@doanhoi/shared';
import { and, asc, eq, exists, gt, inArray, like, or, type SQL } from 'drizzle-orm';
import { classes } from '../classes/schema';
import type { Db } from '../db/client';
import { departments } from '../departments/schema';
import { organizationMembers, organizations } from '../organizations/schema';
import { users } from '../users/schema';
import type { Cell } from './writer';
import { vnDate } from './writer';

const PAGE = 1000;
const USER_TYPE: Record<string, string> = { student: 'Sinh viên', staff: 'Cán bộ' };
const MEMBERSHIP: Record<string, string> = { none: 'Không', doan_vien: 'Đoàn viên', hoi_vien: 'Hội viên', both: 'Đoàn viên và Hội viên' };

type UserRow = typeof users.$inferSelect;

function lookups(db: Db) {
  const dept = new Map(db.select({ id: departments.id, name: departments.name }).from(departments).all().map((d) => [d.id, d.name]));
  const cls = new Map(db.select({ id: classes.id, name: classes.name }).from(classes).all().map((c) => [c.id, c.name]));
  return { dept, cls };
}

function toRecord(u: UserRow, l: ReturnType<typeof lookups>, membership?: { role: string; joinedAt: Date }): Record<string, Cell> {
  return {
    code: u.code,
    familyName: u.familyName,
    givenName: u.givenName,
    fullName: fullName(u),
    email: u.email,
    phone: u.phone,
    managementDepartment: u.managementDepartmentId ? (l.dept.get(u.managementDepartmentId) ?? null) : null,
    trainingDepartment: u.trainingDepartmentId ? (l.dept.get(u.trainingDepartmentId) ?? null) : null,
    class: u.classId ? (l.cls.get(u.classId) ?? null) : null,
    userType: USER_TYPE[u.userType] ?? u.userType,
    membershipStatus: MEMBERSHIP[u.membershipStatus] ?? u.membershipStatus,
    role: membership ? (membership.role === 'member' ? 'Thành viên' : membership.role) : null,
    joinedAt: vnDate(membership?.joinedAt),
    isActive: u.isActive ? 'Hoạt động' : 'Ngừng hoạt động',
    createdAt: vnDate(u.createdAt),
    updatedAt: vnDate(u.updatedAt),
  };
}

/** Users the caller may export: everyone with a global users.export, else members of the organizations (and subtrees) where it is held. */
export function userExportScope(db: Db, roles: RoleGrant[]): SQL | undefined {
  const scope = permissionScope(roles, 'users.export');
  if (scope.all) return undefined;
  if (scope.organizationIds.length === 0) return eq(users.id, -1);
  const paths = db.select({ path: organizations.path }).from(organizations).where(inArray(organizations.id, scope.organizationIds)).all();
  return exists(
    db
      .select({ one: organizationMembers.id })
      .from(organizationMembers)
      .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
      .where(and(eq(organizationMembers.userId, users.id), or(...paths.map((p) => like(organizations.path, `${p.path}%`))))),
  );
}

export async function* userPages(db: Db, where: SQL | undefined): AsyncGenerator<Record<string, Cell>[]> {
  const l = lookups(db);
  let last = 0;
  for (;;) {
    const rows = db.select().from(users).where(and(gt(users.id, last), where)).orderBy(asc(users.id)).limit(PAGE).all();
    if (rows.length === 0) return;
    last = rows[rows.length - 1]!.id;
    yield rows.map((u) => toRecord(u, l));
  }
}

export async function* memberPages(db: Db, organizationId: number): AsyncGenerator<Record<string, Cell>[]> {
  const l = lookups(db);
  let last = 0;
  for (;;) {
    const rows = db
      .select({ u: users, role: organizationMembers.role, joinedAt: organizationMembers.joinedAt })
      .from(organizationMembers)
      .innerJoin(users, eq(users.id, organizationMembers.userId))
      .where(and(eq(organizationMembers.organizationId, organizationId), gt(users.id, last)))
      .orderBy(asc(users.id))
      .limit(PAGE)
      .all();
    if (rows.length === 0) return;
    last = rows[rows.length - 1]!.u.id;
    yield rows.map((r) => toRecord(r.u, l, { role: r.role, joinedAt: r.joinedAt }));
  }
}
