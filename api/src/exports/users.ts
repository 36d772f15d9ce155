/** Users and organization-member exports: keyset-paged reads (id > last; a search by its matches' ids), so 100k rows stream in flat memory. */
import { ethnicityName, formatDay, fullName, GENDER_LABELS_VI, type ExportRequest } from '@doanhoi/shared';
import { and, asc, eq, gt, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { classes } from '../db/tables/classes';
import { matchingIds } from '../users/search';
import type { Db } from '../db/client';
import { departments } from '../db/tables/departments';
import type { Actor } from '../lib/context';
import { notFound } from '../lib/errors';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { searchWords } from '../users/list';
import { publicUserColumns } from '../users/rows';
import { scopeCondition, subtreeRange, userScope } from '../access/scope';
import { users } from '../db/tables/users';
import type { Cell } from '../lib/xlsx-writer';
import { EXPORT_PAGE as PAGE, vnDate } from '../lib/xlsx-writer';
import { allRows, firstRow } from '../db/engine';

/** The labels the users import accepts back (kinds/users.ts aliases), so an export re-imports unchanged. */
const USER_TYPE: Record<string, string> = { student: 'Sinh viên', staff: 'Cán bộ' };
const MEMBERSHIP: Record<string, string> = { none: 'Không', doan_vien: 'Đoàn viên', hoi_vien: 'Hội viên', both: 'Đoàn viên và Hội viên' };
const MEMBER_ROLE: Record<string, string> = { member: 'Thành viên' };

/** Only what an export can show (not the password hash or search text). */
const COLUMNS = publicUserColumns;
type UserRow = { [K in keyof typeof COLUMNS]: (typeof users.$inferSelect)[K] };

/** A calendar day as the import reads it back ("2004-02-01" → "01/02/2004"). */
const day = (d: string | null) => formatDay(d) || null;

async function lookups(db: Db) {
  const dept = new Map(
    (await allRows(db.select({ id: departments.id, name: departments.name }).from(departments))).map((d) => [d.id, d.name]),
  );
  const cls = new Map((await allRows(db.select({ id: classes.id, name: classes.name }).from(classes))).map((c) => [c.id, c.name]));
  return { dept, cls };
}

function toRecord(u: UserRow, l: Awaited<ReturnType<typeof lookups>>, membership?: { role: string; joinedAt: Date }): Record<string, Cell> {
  return {
    code: u.code,
    familyName: u.familyName,
    givenName: u.givenName,
    fullName: fullName(u),
    email: u.email,
    phone: u.phone,
    dateOfBirth: day(u.dateOfBirth),
    gender: u.gender ? GENDER_LABELS_VI[u.gender] : null,
    ethnicity: ethnicityName(u.ethnicity) || null,
    religion: u.religion,
    doanJoinedAt: day(u.doanJoinedAt),
    hoiJoinedAt: day(u.hoiJoinedAt),
    partyJoinedAt: day(u.partyJoinedAt),
    hometown: u.hometown,
    managementDepartment: u.managementDepartmentId ? (l.dept.get(u.managementDepartmentId) ?? null) : null,
    trainingDepartment: u.trainingDepartmentId ? (l.dept.get(u.trainingDepartmentId) ?? null) : null,
    class: u.classId ? (l.cls.get(u.classId) ?? null) : null,
    userType: USER_TYPE[u.userType] ?? u.userType,
    membershipStatus: MEMBERSHIP[u.membershipStatus] ?? u.membershipStatus,
    role: membership ? (MEMBER_ROLE[membership.role] ?? membership.role) : null,
    joinedAt: vnDate(membership?.joinedAt),
    isActive: u.isActive ? 'Hoạt động' : 'Ngừng hoạt động',
    createdAt: vnDate(u.createdAt),
    updatedAt: vnDate(u.updatedAt),
  };
}

/** Which users an export holds: a condition, and the search words (the list's rule) whose matches it is limited to. */
export interface UserExportQuery {
  where: SQL | undefined;
  words: string[];
}

/**
 * Which users the caller may export, with the request's filters: everyone with a global
 * users.export, else the active members of the organizations (and subtrees) where it is held.
 */
export async function userExportFilter(db: Db, actor: Actor, body: ExportRequest): Promise<UserExportQuery> {
  const filters: (SQL | undefined)[] = [scopeCondition(db, await userScope(db, actor, 'users.export'))];
  if (body.userType) filters.push(eq(users.userType, body.userType));
  if (body.membershipStatus) filters.push(eq(users.membershipStatus, body.membershipStatus));
  if (body.organizationId) {
    const org = await firstRow(
      db.select({ path: organizations.path }).from(organizations).where(eq(organizations.id, body.organizationId)),
    );
    if (!org) notFound('Không tìm thấy tổ chức');
    const [from, to] = subtreeRange(org!.path);
    const member = db
      .select({ one: sql`1` })
      .from(organizationMembers)
      .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
      .where(
        and(
          eq(organizationMembers.userId, users.id),
          eq(organizationMembers.isActive, true),
          gte(organizations.path, from),
          lt(organizations.path, to),
        ),
      );
    filters.push(sql`EXISTS ${member}`);
  }
  // The list's search rule (word beginnings, users/search.ts), so an export holds what the list showed.
  return { where: and(...filters), words: searchWords(body.search) };
}

export async function* userPages(db: Db, { where, words }: UserExportQuery): AsyncGenerator<Record<string, Cell>[]> {
  const l = await lookups(db);
  const page = async (cond: SQL) =>
    await allRows(db.select(COLUMNS).from(users).where(and(cond, where)).orderBy(asc(users.id)).limit(PAGE));
  if (words.length) {
    // The matches' ids once, then a page of them at a time (users/search.ts matchingIds says why).
    const ids = await matchingIds(db, words);
    for (let i = 0; i < ids.length; i += PAGE) {
      const rows = await page(inArray(users.id, ids.slice(i, i + PAGE)));
      if (rows.length) yield rows.map((u) => toRecord(u, l));
    }
    return;
  }
  for (let last = 0; ;) {
    const rows = await page(gt(users.id, last));
    if (rows.length === 0) return;
    last = rows[rows.length - 1]!.id;
    yield rows.map((u) => toRecord(u, l));
  }
}

/** The organization's own active members, with their role and joining date. */
export async function* memberPages(db: Db, organizationId: number): AsyncGenerator<Record<string, Cell>[]> {
  const l = await lookups(db);
  let last = 0;
  for (;;) {
    const rows = await allRows(
      db
        .select({ u: COLUMNS, role: organizationMembers.role, joinedAt: organizationMembers.joinedAt })
        .from(organizationMembers)
        .innerJoin(users, eq(users.id, organizationMembers.userId))
        .where(
          and(
            eq(organizationMembers.organizationId, organizationId),
            eq(organizationMembers.isActive, true),
            gt(organizationMembers.userId, last),
          ),
        )
        .orderBy(asc(organizationMembers.userId))
        .limit(PAGE),
    );
    if (rows.length === 0) return;
    last = rows[rows.length - 1]!.u.id;
    yield rows.map((r) => toRecord(r.u, l, { role: r.role, joinedAt: r.joinedAt }));
  }
}
