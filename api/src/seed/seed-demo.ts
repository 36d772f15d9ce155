/** A realistic demo university: both roots, faculties, classes, clubs and a few hundred members. */
import { normalizeText, type MembershipStatus, type OrganizationType } from '@doanhoi/shared';
import { and, eq, sql } from 'drizzle-orm';
import { hashPassword } from '../lib/passwords';
import { classes } from '../db/tables/classes';
import { departments } from '../db/tables/departments';
import { childPath } from '../organizations/paths';
import { organizationMembers, organizations } from '../db/tables/organizations';
import { roles, userRoles } from '../db/tables/roles';
import { userSearchText } from '../users/search';
import { users } from '../db/tables/users';
import type { Db, Tx } from '../db/client';
import { readSeedFile } from '../lib/seed-file';
import { seededRandom } from '../lib/seeded-random';
import { allRows, firstRow, runQuery, withTransaction } from '../db/engine';
import { insertSlices } from './batches';

interface DemoFile {
  faculties: { code: string; name: string; club: { code: string; name: string } | null }[];
  offices: { code: string; name: string }[];
  classesPerFaculty: { suffix: string; year: number }[];
  roots: { doan: { code: string; name: string }; hoi: { code: string; name: string } };
  schoolClubs: { code: string; name: string }[];
  familyNames: string[];
  middleNames: string[];
  givenNames: string[];
  studentsPerClass: number;
  demoAccounts: {
    email: string;
    password: string;
    familyName: string;
    givenName: string;
    code: string;
    userType: 'student' | 'staff';
    role: string;
    organization: { type: OrganizationType; code: string } | null;
    class?: string;
  }[];
}

async function addOrg(
  tx: Tx,
  type: OrganizationType,
  code: string,
  name: string,
  parent: { id: number; path: string } | null,
  description?: string,
) {
  const row = await firstRow(
    tx
      .insert(organizations)
      .values({
        type,
        code,
        name,
        description: description ?? null,
        parentId: parent?.id ?? null,
        searchText: normalizeText(`${name} ${code}`),
      })
      .returning({ id: organizations.id }),
  );
  const path = childPath(parent?.path, row.id);
  await runQuery(tx.update(organizations).set({ path }).where(eq(organizations.id, row.id)));
  return { id: row.id, path };
}

async function join(tx: Tx, userId: number, org: { id: number }, role = 'member') {
  await runQuery(tx.insert(organizationMembers).values({ userId, organizationId: org.id, role }).onConflictDoNothing());
}

type Student = { row: typeof users.$inferInsert; orgs: { id: number }[] };

/**
 * The students in the order they were drawn, then their memberships in the same order: a multi-row
 * INSERT per slice instead of a statement per row (ids come in that order, as row by row).
 */
async function addStudents(tx: Tx, students: Student[]) {
  const ids = new Map<string, number>();
  for (const slice of insertSlices(users, students)) {
    const rows = await allRows(
      tx
        .insert(users)
        .values(slice.map((s) => s.row))
        .returning({ id: users.id, code: users.code }),
    );
    for (const r of rows) ids.set(r.code, r.id);
  }
  const members = students.flatMap((s) => s.orgs.map((o) => ({ userId: ids.get(s.row.code)!, organizationId: o.id, role: 'member' })));
  for (const slice of insertSlices(organizationMembers, members))
    await runQuery(tx.insert(organizationMembers).values(slice).onConflictDoNothing());
}

/** Seeds the demo once: only into a database without organizations. Returns whether it ran. */
export async function seedDemo(db: Db): Promise<boolean> {
  const hasOrgs = (await firstRow(db.select({ n: sql<number>`count(*)` }).from(organizations)))!.n > 0;
  if (hasOrgs) return false;
  const demo = readSeedFile<DemoFile>('demo.json');
  // Hash the demo accounts' passwords before the (synchronous) transaction.
  const hashes = new Map<string, string>();
  for (const a of demo.demoAccounts) hashes.set(a.email, await hashPassword(a.password));
  // Deterministic, so every fresh start shows the same demo.
  const rand = seededRandom(20241120);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;

  await withTransaction(db, async (tx) => {
    const doanRoot = await addOrg(tx, 'doan_truong', demo.roots.doan.code, demo.roots.doan.name, null, 'Ban Chấp hành Đoàn Trường');
    const hoiRoot = await addOrg(
      tx,
      'hoi_sinh_vien_truong',
      demo.roots.hoi.code,
      demo.roots.hoi.name,
      null,
      'Ban Chấp hành Hội Sinh viên Trường',
    );
    for (const c of demo.schoolClubs) await addOrg(tx, 'clb_truong', c.code, c.name, hoiRoot);
    const schoolClubIds = await allRows(
      tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.type, 'clb_truong')),
    );

    for (const o of demo.offices) {
      await runQuery(tx.insert(departments).values({ code: o.code, name: o.name, searchText: normalizeText(`${o.name} ${o.code}`) }));
    }
    const classIds = new Map<string, number>();
    const students: Student[] = [];
    let studentNo = 0;
    for (const f of demo.faculties) {
      const dept = await firstRow(
        tx
          .insert(departments)
          .values({
            code: f.code,
            name: f.name,
            description: `${f.name} – đơn vị đào tạo`,
            searchText: normalizeText(`${f.name} ${f.code}`),
          })
          .returning({ id: departments.id }),
      );
      const dcs = await addOrg(tx, 'doan_co_so', `DCS-${f.code}`, `Đoàn ${f.name.replace(/^Khoa/, 'khoa')}`, doanRoot);
      const lch = await addOrg(tx, 'lien_chi_hoi', `LCH-${f.code}`, `Liên chi Hội ${f.name.replace(/^Khoa/, 'khoa')}`, hoiRoot);
      const club = f.club ? await addOrg(tx, 'clb_khoa', f.club.code, f.club.name, lch) : null;
      for (const k of demo.classesPerFaculty) {
        const className = `${String(k.year).slice(2)}${f.code}${k.suffix}`;
        const cls = await firstRow(
          tx
            .insert(classes)
            .values({ name: className, code: className, year: k.year, departmentId: dept.id, searchText: normalizeText(className) })
            .returning({ id: classes.id }),
        );
        classIds.set(className, cls.id);
        const cd = await addOrg(tx, 'chi_doan', `CD-${className}`, `Chi đoàn ${className}`, dcs);
        const ch = await addOrg(tx, 'chi_hoi', `CH-${className}`, `Chi hội ${className}`, lch);
        for (let i = 0; i < demo.studentsPerClass; i++) {
          studentNo++;
          const familyName = `${pick(demo.familyNames)} ${pick(demo.middleNames)}`;
          const givenName = pick(demo.givenNames);
          const code = `${String(k.year).slice(2)}${String(1000 + studentNo).padStart(6, '0')}`;
          const email = `${code}@sv.bachkhoa.edu.vn`;
          const phone = `09${String(Math.floor(rand() * 1e8)).padStart(8, '0')}`;
          const r = rand();
          const membershipStatus: MembershipStatus = r < 0.5 ? 'both' : r < 0.75 ? 'doan_vien' : r < 0.9 ? 'hoi_vien' : 'none';
          const base = { code, familyName, givenName, email, phone };
          const orgs: { id: number }[] = [];
          if (membershipStatus === 'both' || membershipStatus === 'doan_vien') orgs.push(doanRoot, dcs, cd);
          if (membershipStatus === 'both' || membershipStatus === 'hoi_vien') orgs.push(hoiRoot, lch, ch);
          if (club && rand() < 0.2) orgs.push(club);
          if (rand() < 0.1) orgs.push(pick(schoolClubIds));
          students.push({
            row: {
              ...base,
              passwordHash: null,
              mustChangePassword: true,
              userType: 'student',
              membershipStatus,
              classId: cls.id,
              managementDepartmentId: dept.id,
              trainingDepartmentId: dept.id,
              searchText: userSearchText(base),
            },
            orgs,
          });
        }
      }
    }
    await addStudents(tx, students);

    for (const a of demo.demoAccounts) {
      const base = { code: a.code, familyName: a.familyName, givenName: a.givenName, email: a.email, phone: '0901234567' };
      const classId = a.class ? (classIds.get(a.class) ?? null) : null;
      const u = await firstRow(
        tx
          .insert(users)
          .values({
            ...base,
            passwordHash: hashes.get(a.email)!,
            userType: a.userType,
            membershipStatus: a.userType === 'student' ? 'both' : 'doan_vien',
            classId,
            searchText: userSearchText(base),
          })
          .returning({ id: users.id }),
      );
      const role = await firstRow(tx.select({ id: roles.id }).from(roles).where(eq(roles.name, a.role)));
      const org = a.organization
        ? await firstRow(
            tx
              .select({ id: organizations.id, path: organizations.path })
              .from(organizations)
              .where(and(eq(organizations.type, a.organization.type), eq(organizations.code, a.organization.code))),
          )
        : null;
      if (role) await runQuery(tx.insert(userRoles).values({ userId: u.id, roleId: role.id, organizationId: org?.id ?? null }));
      if (org)
        for (const id of org.path.split('/').filter(Boolean).map(Number)) await join(tx, u.id, { id }, id === org.id ? 'admin' : 'member');
      if (a.class) {
        for (const code of [`CD-${a.class}`, `CH-${a.class}`]) {
          const o = await firstRow(tx.select({ path: organizations.path }).from(organizations).where(eq(organizations.code, code)));
          if (o) for (const id of o.path.split('/').filter(Boolean).map(Number)) await join(tx, u.id, { id });
        }
      }
    }
  });
  return true;
}
