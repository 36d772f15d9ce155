/** GET /organizations/stats (000 §3): organization and member counts per type, with the membership split. */
import type { OrganizationStats, OrganizationType } from '@doanhoi/shared';
import { and, count, countDistinct, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../users/schema';
import { organizationMembers, organizations } from './schema';

const KEY: Record<string, string> = {
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

export function organizationStats(db: Db, visible: SQL | undefined): OrganizationStats {
  const orgCounts = new Map(
    db.select({ type: organizations.type, n: count() }).from(organizations).where(visible).groupBy(organizations.type).all().map((r) => [r.type, r.n]),
  );
  const memberJoin = and(eq(organizationMembers.isActive, true), visible);
  const memberCounts = new Map(
    db
      .select({ type: organizations.type, n: countDistinct(organizationMembers.userId) })
      .from(organizationMembers)
      .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
      .where(memberJoin)
      .groupBy(organizations.type)
      .all()
      .map((r) => [r.type, r.n]),
  );
  const groupMembers = (types: readonly string[]) =>
    db
      .select({ n: countDistinct(organizationMembers.userId) })
      .from(organizationMembers)
      .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
      .where(and(memberJoin, inArray(organizations.type, types as OrganizationType[])))
      .get()!.n;
  const block = (types: readonly string[]) => {
    const orgs: Record<string, number> = {};
    const members: Record<string, number> = {};
    let total = 0;
    for (const t of types) {
      orgs[KEY[t]!] = orgCounts.get(t as never) ?? 0;
      members[KEY[t]!] = memberCounts.get(t as never) ?? 0;
      total += orgs[KEY[t]!]!;
    }
    return { total, ...orgs, members: { total: groupMembers(types), ...members } };
  };
  const split = db
    .select({ status: users.membershipStatus, n: countDistinct(users.id) })
    .from(users)
    .innerJoin(organizationMembers, eq(organizationMembers.userId, users.id))
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(memberJoin)
    .groupBy(users.membershipStatus)
    .all();
  const by = (s: string) => split.find((r) => r.status === s)?.n ?? 0;
  return {
    doanStats: block(GROUPS.doanStats) as unknown as OrganizationStats['doanStats'],
    hoiStats: block(GROUPS.hoiStats) as unknown as OrganizationStats['hoiStats'],
    clbStats: block(GROUPS.clbStats) as unknown as OrganizationStats['clbStats'],
    totalMembers: split.reduce((s, r) => s + r.n, 0),
    membershipBreakdown: { both: by('both'), onlyDoanVien: by('doan_vien'), onlyHoiVien: by('hoi_vien'), neither: by('none') },
  };
}
