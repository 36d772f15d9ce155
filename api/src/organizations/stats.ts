/** GET /organizations/stats (000 §3): organization and member counts per type, with the membership split. */
import type { MembershipSplit, OrganizationStats, OrganizationType } from '@doanhoi/shared';
import { and, count, countDistinct, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../users/schema';
import { organizationMembers, organizations } from './schema';

const KEY: Record<OrganizationType, string> = {
  doan_truong: 'doanTruong',
  doan_co_so: 'doanCoSo',
  chi_doan: 'chiDoan',
  hoi_sinh_vien_truong: 'hoiSinhVienTruong',
  lien_chi_hoi: 'lienChiHoi',
  chi_hoi: 'chiHoi',
  clb_truong: 'clbTruong',
  clb_khoa: 'clbKhoa',
};
const GROUPS = {
  doanStats: ['doan_truong', 'doan_co_so', 'chi_doan'],
  hoiStats: ['hoi_sinh_vien_truong', 'lien_chi_hoi', 'chi_hoi'],
  clbStats: ['clb_truong', 'clb_khoa'],
} as const;
type Group = keyof typeof GROUPS;

/** The group of an organization's type, in SQL, so one grouped query splits every group at once. */
const groupOf = sql<Group>`case ${sql.join(
  Object.entries(GROUPS).map(([group, types]) => sql`when ${organizations.type} in ${types} then ${group}`),
  sql` `,
)} end`;

const split = (rows: { status: string; n: number }[]): MembershipSplit => {
  const by = (s: string) => rows.filter((r) => r.status === s).reduce((sum, r) => sum + r.n, 0);
  return { both: by('both'), onlyDoanVien: by('doan_vien'), onlyHoiVien: by('hoi_vien'), neither: by('none') };
};

/**
 * Four grouped queries: organizations per type, distinct members per type, distinct members per
 * group and membership status, and distinct members per status overall. A user counts once per
 * group (and once in totalMembers) however many of its organizations they belong to.
 */
export function organizationStats(db: Db, visible: SQL | undefined): OrganizationStats {
  const orgCounts = new Map(
    db.select({ type: organizations.type, n: count() }).from(organizations).where(visible).groupBy(organizations.type).all().map((r) => [r.type, r.n]),
  );
  const active = and(eq(organizationMembers.isActive, true), visible);
  const memberCounts = new Map(
    db
      .select({ type: organizations.type, n: countDistinct(organizationMembers.userId) })
      .from(organizationMembers)
      .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
      .where(active)
      .groupBy(organizations.type)
      .all()
      .map((r) => [r.type, r.n]),
  );
  const byGroup = db
    .select({ group: groupOf, status: users.membershipStatus, n: countDistinct(organizationMembers.userId) })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(active)
    .groupBy(groupOf, users.membershipStatus)
    .all();
  const overall = db
    .select({ status: users.membershipStatus, n: countDistinct(organizationMembers.userId) })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(active)
    .groupBy(users.membershipStatus)
    .all();

  const block = (group: Group) => {
    const rows = byGroup.filter((r) => r.group === group);
    const orgs: Record<string, number> = {};
    const members: Record<string, number> = { total: rows.reduce((sum, r) => sum + r.n, 0) };
    let total = 0;
    for (const t of GROUPS[group]) {
      orgs[KEY[t]] = orgCounts.get(t) ?? 0;
      members[KEY[t]] = memberCounts.get(t) ?? 0;
      total += orgs[KEY[t]]!;
    }
    return { total, ...orgs, members: { ...members, ...split(rows) } };
  };
  return {
    doanStats: block('doanStats') as unknown as OrganizationStats['doanStats'],
    hoiStats: block('hoiStats') as unknown as OrganizationStats['hoiStats'],
    clbStats: block('clbStats') as unknown as OrganizationStats['clbStats'],
    totalMembers: overall.reduce((sum, r) => sum + r.n, 0),
    membershipBreakdown: split(overall),
  };
}
