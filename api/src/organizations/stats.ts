/**
 * GET /organizations/stats and /organizations/{id}/stats (000 §3, issue 26 item 4): organizations per
 * type and the distinct members per organization type, group, user type and Đoàn/Hội status.
 */
import { USER_TYPES, type MembershipSplit, type OrganizationStats, type OrganizationType, type UserType } from '@doanhoi/shared';
import { and, count, countDistinct, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { freshCache } from '../lib/freshness';
import { users } from '../db/tables/users';
import { subtreeRange } from '../access/scope';
import { organizationMembers, organizations, unitMemberFigures } from '../db/tables/organizations';
import { allRows } from '../db/engine';

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
/** The bucket of each group in unit_member_figures (migration unit_member_figures_triggers). */
const BUCKET: Record<Group, string> = { doanStats: 'doan', hoiStats: 'hoi', clbStats: 'clb' };

/** One count of distinct members: where (bucket), who (user type) and their Đoàn/Hội status. */
interface Cell {
  bucket: string;
  userType: string;
  status: string;
  n: number;
}

const STATUS_KEY: Record<string, keyof MembershipSplit> = {
  both: 'both',
  doan_vien: 'onlyDoanVien',
  hoi_vien: 'onlyHoiVien',
  none: 'neither',
};

function split(cells: Cell[]): MembershipSplit {
  const out: MembershipSplit = { both: 0, onlyDoanVien: 0, onlyHoiVien: 0, neither: 0 };
  for (const c of cells) {
    const k = STATUS_KEY[c.status];
    if (k) out[k] += c.n;
  }
  return out;
}
const sum = (cells: Cell[]) => cells.reduce((s, c) => s + c.n, 0);

/** The response from organizations per type and the member cells (buckets: types, groups and 'all'). */
function assemble(orgCounts: Map<string, number>, cells: Cell[]): OrganizationStats {
  const inBucket = (b: string) => cells.filter((c) => c.bucket === b);
  const block = (group: Group) => {
    const own = inBucket(BUCKET[group]);
    const orgs: Record<string, number> = {};
    const members: Record<string, number> = { total: sum(own) };
    let total = 0;
    for (const t of GROUPS[group]) {
      orgs[KEY[t]] = orgCounts.get(t) ?? 0;
      members[KEY[t]] = sum(inBucket(t));
      total += orgs[KEY[t]]!;
    }
    return { total, ...orgs, members: { ...members, ...split(own) } };
  };
  const all = inBucket('all');
  const byUserType = Object.fromEntries(
    USER_TYPES.map((u: UserType) => {
      const mine = all.filter((c) => c.userType === u);
      return [u, { total: sum(mine), ...split(mine) }];
    }),
  ) as OrganizationStats['byUserType'];
  return {
    doanStats: block('doanStats') as unknown as OrganizationStats['doanStats'],
    hoiStats: block('hoiStats') as unknown as OrganizationStats['hoiStats'],
    clbStats: block('clbStats') as unknown as OrganizationStats['clbStats'],
    totalMembers: sum(all),
    membershipBreakdown: split(all),
    byUserType,
  };
}

// Organizations per type change only when organizations are written; a subtree is read through the path index.
const orgCountCache = freshCache<[string, number][]>(1_000, ['organizations']);

async function orgCountsIn(db: Db, path: string | null): Promise<Map<string, number>> {
  return new Map(
    await orgCountCache.get(db, path ?? '*', async () => {
      const where = path ? and(gte(organizations.path, subtreeRange(path)[0]), lt(organizations.path, subtreeRange(path)[1])) : undefined;
      return (
        await allRows(db.select({ type: organizations.type, n: count() }).from(organizations).where(where).groupBy(organizations.type))
      ).map((r) => [r.type, r.n]);
    }),
  );
}

/**
 * The statistics of a whole subtree (`organization` null: everything), read from the trigger-kept
 * unit_member_figures rows (at most a hundred) and the organization counts: no membership is counted.
 */
export async function subtreeFigures(db: Db, organization: { id: number; path: string } | null): Promise<OrganizationStats> {
  const cells = await allRows(
    db
      .select({
        bucket: unitMemberFigures.bucket,
        userType: unitMemberFigures.userType,
        status: unitMemberFigures.membershipStatus,
        n: unitMemberFigures.n,
      })
      .from(unitMemberFigures)
      .where(eq(unitMemberFigures.organizationId, organization?.id ?? 0)),
  );
  return assemble(await orgCountsIn(db, organization?.path ?? null), cells);
}

/** A constant of this module as an SQL literal (never user input). */
const literal = (s: string) => sql.raw(`'${s}'`);

/**
 * The bucket of an organization row in SQL: its type, its group, or everything. Literals, not
 * parameters: PostgreSQL matches the GROUP BY expression to the select list's only when both are the
 * same text, and numbered parameters make them differ.
 */
const groupOf = sql<string>`case ${sql.join(
  Object.entries(GROUPS).map(
    ([group, types]) =>
      sql`when ${organizations.type} in (${sql.join(types.map(literal), sql`, `)}) then ${literal(BUCKET[group as Group])}`,
  ),
  sql` `,
)} end`;

/**
 * The statistics over an arbitrary visible set of organizations (a caller who sees some units only
 * as a member, never a whole subtree): counted from the memberships of those few organizations.
 */
export async function organizationStats(db: Db, visible: SQL | undefined): Promise<OrganizationStats> {
  const orgCounts = new Map(
    (await allRows(db.select({ type: organizations.type, n: count() }).from(organizations).where(visible).groupBy(organizations.type))).map(
      (r) => [r.type, r.n],
    ),
  );
  const active = and(eq(organizationMembers.isActive, true), visible);
  // A constant bucket is not grouped by: PostgreSQL refuses a constant in GROUP BY.
  const grouped = async (bucket: SQL<string>, constant = false) =>
    await allRows(
      db
        .select({ bucket, userType: users.userType, status: users.membershipStatus, n: countDistinct(organizationMembers.userId) })
        .from(organizationMembers)
        .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
        .innerJoin(users, eq(users.id, organizationMembers.userId))
        .where(active)
        .groupBy(...(constant ? [] : [bucket]), users.userType, users.membershipStatus),
    );
  const cells = [
    ...(await grouped(sql<string>`${organizations.type}`)),
    ...(await grouped(groupOf)),
    ...(await grouped(sql<string>`'all'`, true)),
  ];
  return assemble(orgCounts, cells);
}
