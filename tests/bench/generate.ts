/**
 * Builds a benchmark database: 100,000 users, 5,000 organizations, 200 classes, memberships,
 * through the app's own migrations and seed (so the schema and indexes are the real ones).
 */
import { normalizeText, type OrganizationType } from '@doanhoi/shared';
import { eq } from 'drizzle-orm';
import { openDb } from '../../api/src/db/client';
import { runMigrations } from '../../api/src/db/migrate';
import { seedAdmin, seedDefaultRoles, seedPermissions } from '../../api/src/seed/seed';
import { loadEnv } from '../../api/src/env';
import { classes, departments, organizationMembers, organizations, users } from '../../api/src/db/schema';
import { childPath } from '../../api/src/organizations/paths';
import { syncUsersIndex, userSearchText } from '../../api/src/users/search';

export const FAMILY = ['Nguyễn', 'Trần', 'Lê', 'Phạm', 'Hoàng', 'Huỳnh', 'Phan', 'Vũ', 'Võ', 'Đặng', 'Bùi', 'Đỗ'];
export const MIDDLE = ['Văn', 'Thị', 'Hữu', 'Minh', 'Ngọc', 'Thanh', 'Đức', 'Quốc'];
export const GIVEN = [
  'An',
  'Bình',
  'Châu',
  'Dũng',
  'Giang',
  'Hà',
  'Hải',
  'Hạnh',
  'Hiếu',
  'Hoa',
  'Hùng',
  'Lan',
  'Linh',
  'Long',
  'Mai',
  'Nam',
];

export interface BenchCounts {
  users: number;
  organizations: number;
  classes: number;
}

export async function generateBenchDb(path: string, counts: BenchCounts = { users: 100_000, organizations: 5_000, classes: 200 }) {
  const env = loadEnv({
    DATABASE_PATH: path,
    JWT_SECRET: 'bench-jwt-secret-000000',
    APP_SECRET: 'bench-app-secret-000000',
    ADMIN_PASSWORD: 'admin123',
    SEED_DEMO: 'false',
  });
  const db = openDb(path);
  runMigrations(db);
  seedPermissions(db);
  seedDefaultRoles(db);
  await seedAdmin(db, env);
  let s = 42;
  const rand = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;

  db.transaction((tx) => {
    const addOrg = (type: OrganizationType, code: string, name: string, parent: { id: number; path: string } | null) => {
      const id = tx
        .insert(organizations)
        .values({ type, code, name, parentId: parent?.id ?? null, searchText: normalizeText(name) })
        .returning({ id: organizations.id })
        .get().id;
      const path = childPath(parent?.path, id);
      tx.update(organizations).set({ path }).where(eq(organizations.id, id)).run();
      return { id, path };
    };
    const doan = addOrg('doan_truong', 'DT', 'Đoàn Trường', null);
    const hoi = addOrg('hoi_sinh_vien_truong', 'HSV', 'Hội Sinh viên Trường', null);
    const leaves: { id: number; path: string }[] = [];
    let n = 2;
    const faculties = 40;
    const perFaculty = Math.floor((counts.organizations - 2 - faculties * 2) / (faculties * 2));
    for (let f = 0; f < faculties; f++) {
      const dcs = addOrg('doan_co_so', `DCS${f}`, `Đoàn khoa ${f}`, doan);
      const lch = addOrg('lien_chi_hoi', `LCH${f}`, `Liên chi Hội khoa ${f}`, hoi);
      n += 2;
      for (let i = 0; i < perFaculty; i++) {
        leaves.push(addOrg('chi_doan', `CD${f}-${i}`, `Chi đoàn ${f}-${i}`, dcs));
        leaves.push(addOrg('chi_hoi', `CH${f}-${i}`, `Chi hội ${f}-${i}`, lch));
        n += 2;
      }
    }
    for (; n < counts.organizations; n++) leaves.push(addOrg('clb_truong', `CLB${n}`, `CLB ${n}`, hoi));
    const deptIds = Array.from(
      { length: 10 },
      (_, i) =>
        tx
          .insert(departments)
          .values({ name: `Khoa ${i}`, code: `K${i}`, searchText: `khoa ${i} k${i}` })
          .returning({ id: departments.id })
          .get().id,
    );
    const classIds = Array.from(
      { length: counts.classes },
      (_, i) =>
        tx
          .insert(classes)
          .values({ name: `Lớp ${i}`, code: `L${i}`, year: 2020 + (i % 5), departmentId: deptIds[i % 10]!, searchText: `lop ${i} l${i}` })
          .returning({ id: classes.id })
          .get().id,
    );
    const statuses = ['none', 'doan_vien', 'hoi_vien', 'both'] as const;
    for (let i = 0; i < counts.users; i++) {
      const base = {
        code: `SV${String(i).padStart(7, '0')}`,
        familyName: `${pick(FAMILY)} ${pick(MIDDLE)}`,
        givenName: pick(GIVEN),
        email: `sv${i}@bench.vn`,
        phone: `09${String(i).padStart(8, '0')}`,
      };
      const id = tx
        .insert(users)
        .values({
          ...base,
          passwordHash: null,
          mustChangePassword: true,
          userType: i % 10 === 0 ? 'staff' : 'student',
          membershipStatus: pick([...statuses]),
          classId: classIds[i % classIds.length]!,
          searchText: userSearchText(base),
        })
        .returning({ id: users.id })
        .get().id;
      tx.insert(organizationMembers)
        .values({ organizationId: leaves[i % leaves.length]!.id, userId: id })
        .run();
    }
  });
  // The index is built before ANALYZE: statistics taken while it was empty (2 rows) made every later
  // FTS5 merge scan the whole index (search.ts repairs such a row at start, but none is written here).
  syncUsersIndex(db);
  db.$client.pragma('wal_checkpoint(TRUNCATE)');
  db.$client.exec('ANALYZE');
  db.$client.close();
}
