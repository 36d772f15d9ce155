/**
 * Live dashboard figures (issue 15.1): aggregate SQL over the scope's units, never whole tables in
 * JS. Each answer is cached until one of the tables it reads is written (lib/freshness.ts), so
 * the first screen of the day pays the grouped scan once and every refresh after it is a lookup.
 */
import type { CollectionFigures, DashboardCampaigns, DashboardMembers, DashboardWeekly } from '@doanhoi/shared';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { freshCache } from '../lib/freshness';
import type { Actor } from '../lib/context';
import { notFound } from '../lib/errors';
import { memberFigures } from '../db/tables/organizations';
import { campaignFigures, campaignWeeks, paymentCampaigns } from '../db/tables/payments';
import { currentTerm, dashboardScope, MEMBER_FIGURES, rangesCondition, type Unit } from './scope';
import { mondayOf, mondayOfWeek } from './weeks';
import { allRows, firstRow, sqlAll, sqlGet } from '../db/engine';

const MEMBERS = MEMBER_FIGURES;
const REPORTS = 'payment-campaigns.view_reports';
const LAGGING = 5;

// The trigger-kept member_figures and campaign_figures move with the tables they are kept from.
const memberCache = freshCache<DashboardMembers>(200, ['users', 'organizations', 'organization_members']);
const campaignCache = freshCache<DashboardCampaigns>(200, [
  'organizations',
  'organization_members',
  'payment_campaigns',
  'payment_assignments',
]);
const weeklyCache = freshCache<DashboardWeekly>(200, ['payment_campaigns', 'payment_assignments', 'payment_orders']);

// Distinct users per status, counted once per unit however many of its organizations they belong to.
const memberColumns = (term: { start: number; end: number }) => sql`count(DISTINCT m.user_id) AS members,
  count(DISTINCT CASE WHEN usr.membership_status IN ('doan_vien', 'both') THEN m.user_id END) AS "doanVien",
  count(DISTINCT CASE WHEN usr.membership_status IN ('hoi_vien', 'both') THEN m.user_id END) AS "hoiVien",
  count(DISTINCT CASE WHEN m.joined_at >= ${term.start} AND m.joined_at < ${term.end} THEN m.user_id END) AS "joinsThisTerm"`;

/**
 * Collection figures summed from the trigger-kept campaign_figures (migration 0019), grouped by
 * `by`: counted as payments/statistics.ts counts them (expected = Σ amounts; collected = money
 * counted towards each fee, sandbox money never; paid = fees paid with real money, testPaid = fees
 * settled by sandbox money, apart, as the statistics count them); overdue = OVERDUE, or still PENDING after the
 * campaign's end.
 */
async function collectionFigures(
  db: Db,
  now: number,
  campaignIds: number[],
  organizationIds: number[],
  by: typeof campaignFigures.campaignId | typeof campaignFigures.organizationId,
) {
  const f = campaignFigures;
  const ended = sql`${paymentCampaigns.endDate} < ${now}`;
  const total = (v: SQL) => sql<number>`coalesce(sum(${v}), 0)`.mapWith(Number);
  return await allRows(
    db
      .select({
        key: by,
        assigned: total(sql`${f.assigned}`),
        paid: total(sql`${f.paid}`),
        testPaid: total(sql`${f.testPaid}`),
        expected: total(sql`${f.expected}`),
        collected: total(sql`${f.collected}`),
        overdueAmount: total(sql`${f.overdueAmount} + CASE WHEN ${ended} THEN ${f.pendingAmount} ELSE 0 END`),
        overdueCount: total(sql`${f.overdueCount} + CASE WHEN ${ended} THEN ${f.pendingCount} ELSE 0 END`),
      })
      .from(f)
      .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, f.campaignId))
      .where(and(inArray(f.campaignId, campaignIds), inArray(f.organizationId, organizationIds)))
      .groupBy(by),
  );
}

type Row = Omit<CollectionFigures, 'rate'>;
const EMPTY: Row = { assigned: 0, paid: 0, testPaid: 0, expected: 0, collected: 0, overdueAmount: 0, overdueCount: 0 };
const withRate = <T extends Row>(r: T): T & { rate: number } => ({
  ...r,
  rate: r.expected > 0 ? Math.round((r.collected / r.expected) * 1000) / 10 : 0,
});
const unitRef = (u: Unit) => ({ organizationId: u.organizationId, name: u.name, type: u.type });

export function dashboardService(db: Db, actor: Actor, now = Date.now()) {
  return {
    async members(organizationId?: number): Promise<DashboardMembers> {
      const scope = await dashboardScope(db, actor, MEMBERS, organizationId);
      const term = currentTerm(now);
      return memberCache.get(db, `${scope.key}@${term.start}`, async () => {
        // Every unit, and the totals of one subtree or of everything, are rows the triggers keep.
        const totalsOrg = scope.ranges === null ? 0 : scope.totalsOrganizationId;
        const ids = [...scope.units.map((u) => u.organizationId), ...(totalsOrg == null ? [] : [totalsOrg])];
        const figures = new Map<number, Omit<DashboardMembers['totals'], 'organizations'>>();
        if (ids.length) {
          const rows = await allRows(
            db
              .select()
              .from(memberFigures)
              .where(and(inArray(memberFigures.organizationId, ids), inArray(memberFigures.termStart, [0, term.start]))),
          );
          for (const id of ids) figures.set(id, { members: 0, doanVien: 0, hoiVien: 0, joinsThisTerm: 0 });
          for (const r of rows) {
            const f = figures.get(r.organizationId)!;
            if (r.termStart === 0) Object.assign(f, { members: r.members, doanVien: r.doan, hoiVien: r.hoi });
            else f.joinsThisTerm = r.members;
          }
        }
        const where = rangesCondition(sql`o.path`, scope.ranges);
        // Several separate grants: a user in two of them counts once, which no single row holds.
        const totals =
          totalsOrg == null
            ? await sqlGet<Omit<DashboardMembers['totals'], 'organizations'>>(
                db,
                sql`SELECT ${memberColumns(term)} FROM organization_members m
                   JOIN organizations o ON o.id = m.organization_id JOIN users usr ON usr.id = m.user_id
                   WHERE m.is_active = TRUE AND ${where}`,
              )
            : figures.get(totalsOrg)!;
        const orgCount = (await sqlGet<{ n: number }>(db, sql`SELECT count(*) AS n FROM organizations o WHERE ${where}`)).n;
        return {
          term: { kind: term.kind, start: new Date(term.start).toISOString(), end: new Date(term.end).toISOString() },
          totals: { ...totals, organizations: orgCount },
          units: scope.units.map((u) => ({ ...unitRef(u), ...figures.get(u.organizationId)! })),
        };
      });
    },

    /** Active campaigns organized in the scope, their collection, and the same per unit (by the members' units). */
    async campaigns(organizationId?: number): Promise<DashboardCampaigns> {
      const scope = await dashboardScope(db, actor, REPORTS, organizationId);
      const minute = Math.floor(now / 60_000) * 60_000;
      return campaignCache.get(db, `${scope.key}@${minute}`, async () => {
        const where = rangesCondition(sql`o.path`, scope.ranges);
        const list = await sqlAll<{ id: number; name: string; organizationName: string; endDate: number }>(
          db,
          sql`SELECT c.id, c.name, o.name AS "organizationName", c.end_date AS "endDate" FROM payment_campaigns c
             JOIN organizations o ON o.id = c.organization_id
             WHERE c.status = 'ACTIVE' AND ${where} ORDER BY c.end_date, c.id LIMIT 50`,
        );
        const ids = list.map((x) => x.id);
        const perCampaign = new Map(
          ids.length ? (await collectionFigures(db, minute, ids, [0], campaignFigures.campaignId)).map(({ key, ...r }) => [key, r]) : [],
        );
        const perUnit = new Map(
          ids.length && scope.units.length
            ? (
                await collectionFigures(
                  db,
                  minute,
                  ids,
                  scope.units.map((u) => u.organizationId),
                  campaignFigures.organizationId,
                )
              ).map(({ key, ...r }) => [key, r])
            : [],
        );
        const campaigns = list.map((x) =>
          withRate({
            id: x.id,
            name: x.name,
            organizationName: x.organizationName,
            endDate: new Date(x.endDate).toISOString(),
            ...(perCampaign.get(x.id) ?? EMPTY),
          }),
        );
        const totals = withRate(
          campaigns.reduce<Row>(
            (s, x) => ({
              assigned: s.assigned + x.assigned,
              paid: s.paid + x.paid,
              testPaid: s.testPaid + x.testPaid,
              expected: s.expected + x.expected,
              collected: s.collected + x.collected,
              overdueAmount: s.overdueAmount + x.overdueAmount,
              overdueCount: s.overdueCount + x.overdueCount,
            }),
            EMPTY,
          ),
        );
        const units = scope.units.map((u) => withRate({ ...unitRef(u), ...(perUnit.get(u.organizationId) ?? EMPTY) }));
        const lagging = units
          .filter((u) => u.assigned > 0 && u.collected < u.expected)
          .sort((a, b) => a.rate - b.rate || b.expected - b.collected - (a.expected - a.collected))
          .slice(0, LAGGING);
        return { totals, campaigns, units, lagging };
      });
    },

    /** Money counted towards the campaign's fees per week (Monday, Vietnam time), from its first week to now or its end. */
    async weekly(campaignId: number): Promise<DashboardWeekly> {
      return weeklyCache.get(db, `${campaignId}@${Math.floor(now / 3_600_000)}`, async () => {
        const campaign = await sqlGet<{ start: number; end: number } | undefined>(
          db,
          sql`SELECT start_date AS start, end_date AS "end" FROM payment_campaigns WHERE id = ${campaignId}`,
        );
        if (!campaign) notFound('Không tìm thấy đợt thu');
        const expected =
          (
            await firstRow(
              db
                .select({ n: campaignFigures.expected })
                .from(campaignFigures)
                .where(and(eq(campaignFigures.campaignId, campaignId), eq(campaignFigures.organizationId, 0))),
            )
          )?.n ?? 0;
        // Kept per week by triggers (migration 0021): a few rows however many orders the campaign has.
        const rows = (
          await allRows(
            db
              .select({ week: campaignWeeks.week, payments: campaignWeeks.payments, collected: campaignWeeks.collected })
              .from(campaignWeeks)
              .where(eq(campaignWeeks.campaignId, campaignId))
              .orderBy(campaignWeeks.week),
          )
        ).map(({ week, ...r }) => ({ weekStart: mondayOfWeek(week), ...r }));
        const bounds = { first: mondayOf(campaign!.start), last: mondayOf(Math.min(now, campaign!.end)) };
        const byWeek = new Map(rows.map((r) => [r.weekStart, r]));
        const starts = new Set<string>();
        // Every week from the campaign's first to now (at most two years), so quiet weeks show as zero.
        for (
          let d = new Date(`${bounds.first}T00:00:00Z`), i = 0;
          d.toISOString().slice(0, 10) <= bounds.last && i < 104;
          d.setUTCDate(d.getUTCDate() + 7), i++
        )
          starts.add(d.toISOString().slice(0, 10));
        for (const r of rows) starts.add(r.weekStart);
        let cumulative = 0;
        const weeks = [...starts].sort().map((weekStart) => {
          const r = byWeek.get(weekStart);
          cumulative += r?.collected ?? 0;
          return { weekStart, collected: r?.collected ?? 0, payments: r?.payments ?? 0, cumulative };
        });
        return { campaignId, expected, weeks };
      });
    },
  };
}
