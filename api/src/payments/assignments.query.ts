/** Reading assignments: lists scoped to where payment-campaigns.read is held, the member's own, one by id. */
import { normalizeText, type Assignment, type AssignmentListQuery, type MyAssignmentsQuery } from '@doanhoi/shared';
import { and, asc, count, desc, eq, inArray, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Actor, Deps } from '../lib/context';
import { forbidden, notFound } from '../lib/errors';
import { cachedTotal, totalPages } from '../lib/totals';
import { organizations } from '../db/tables/organizations';
import { filterKey, searchTextLike } from '../lib/text-filter';
import { users } from '../db/tables/users';
import { can, orgScope, P, scopeCondition, scopeKey } from '../access/payments';
import { assignmentQuery, toAssignment } from './mappers';
import { loadCampaign } from './rules';
import { feeLevels, paymentAssignments, paymentCampaigns } from '../db/tables/payments';
import { allRows, firstRow } from '../db/engine';

export const ASSIGNMENT_NOT_FOUND = 'Không tìm thấy khoản phí được phân công';

const SORT: Record<AssignmentListQuery['sortBy'], SQLWrapper[]> = {
  createdAt: [paymentAssignments.createdAt],
  dueDate: [paymentAssignments.dueDate],
  status: [paymentAssignments.status],
  amount: [paymentAssignments.amount],
  paidAt: [paymentAssignments.paidAt],
  // Vietnamese names sort by the given name first.
  memberName: [users.givenName, users.familyName],
  memberCode: [users.code],
  feeLevel: [feeLevels.orderIndex],
};

export interface AssignmentPage {
  assignments: Assignment[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

export function assignmentsQueries({ db }: Deps, actor: Actor) {
  /** Ids of fee levels (among the campaigns the other filters allow) whose name matches, accents ignored. */
  async function levelsNamed(needle: string, campaignWhere: SQL | undefined): Promise<number[]> {
    const rows = await allRows(
      db
        .select({ id: feeLevels.id, name: feeLevels.levelName })
        .from(feeLevels)
        .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, feeLevels.campaignId))
        .innerJoin(organizations, eq(organizations.id, paymentCampaigns.organizationId))
        .where(campaignWhere),
    );
    return rows.filter((r) => normalizeText(r.name).includes(needle)).map((r) => r.id);
  }

  async function page(q: AssignmentListQuery, extra: SQL | undefined, scopeTag: string): Promise<AssignmentPage> {
    const campaignWhere = and(
      extra,
      q.campaignId ? eq(paymentCampaigns.id, q.campaignId) : undefined,
      q.organizationId ? eq(paymentCampaigns.organizationId, q.organizationId) : undefined,
    );
    const needle = normalizeText(q.search);
    let searchCond: SQL | undefined;
    if (needle) {
      const levelIds = await levelsNamed(needle, campaignWhere);
      searchCond = or(
        searchTextLike(users.searchText, needle),
        levelIds.length ? inArray(paymentAssignments.feeLevelId, levelIds) : undefined,
      );
    }
    const where = and(
      campaignWhere,
      q.userId ? eq(paymentAssignments.userId, q.userId) : undefined,
      q.status ? eq(paymentAssignments.status, q.status) : undefined,
      q.feeLevelId ? eq(paymentAssignments.feeLevelId, q.feeLevelId) : undefined,
      searchCond,
    );
    const countNow = async () =>
      (await firstRow(
        db
          .select({ n: count() })
          .from(paymentAssignments)
          .innerJoin(users, eq(users.id, paymentAssignments.userId))
          .innerJoin(feeLevels, eq(feeLevels.id, paymentAssignments.feeLevelId))
          .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, paymentAssignments.campaignId))
          .innerJoin(organizations, eq(organizations.id, paymentCampaigns.organizationId))
          .where(where),
      ))!.n;
    // Searches match names that other domains edit, so only unsearched totals are cached.
    const total = needle
      ? await countNow()
      : await cachedTotal(
          db,
          ['payment_assignments', 'users', 'fee_levels', 'payment_campaigns', 'organizations'],
          filterKey({ scopeTag, c: q.campaignId, o: q.organizationId, u: q.userId, s: q.status, f: q.feeLevelId }),
          countNow,
        );
    const dir = q.sortOrder === 'asc' ? asc : desc;
    const rows = await allRows(
      assignmentQuery(db)
        .where(where)
        .orderBy(...SORT[q.sortBy].map((col) => dir(col)), dir(paymentAssignments.id))
        .limit(q.limit)
        .offset((q.page - 1) * q.limit),
    );
    const now = Date.now();
    return {
      assignments: rows.map((r) => toAssignment(r, actor.id, now)),
      total,
      page: q.page,
      limit: q.limit,
      totalPages: totalPages(total, q.limit),
    };
  }

  return {
    /** A named campaign or organization must be readable (403); otherwise rows are scoped to where read is held. */
    async list(q: AssignmentListQuery): Promise<AssignmentPage> {
      if (q.campaignId) {
        const campaign = await loadCampaign(db, q.campaignId);
        if (!(await can(db, actor, P.read, campaign.organizationId))) forbidden();
      }
      if (q.organizationId && !(await can(db, actor, P.read, q.organizationId))) forbidden();
      const scope = await orgScope(db, actor, P.read);
      return page(q, scopeCondition(scope, organizations.path), scopeKey(scope));
    },

    /** The route has checked read in this organization. */
    async byOrganization(organizationId: number, q: AssignmentListQuery): Promise<AssignmentPage> {
      return page({ ...q, organizationId }, undefined, `org:${organizationId}`);
    },

    /** The member's own assignment, or one the caller may read. */
    async get(id: number): Promise<Assignment> {
      const row = await firstRow(assignmentQuery(db).where(eq(paymentAssignments.id, id)));
      if (!row) notFound(ASSIGNMENT_NOT_FOUND);
      if (row!.a.userId !== actor.id && !(await can(db, actor, P.read, row!.organization.id))) forbidden();
      return toAssignment(row!, actor.id);
    },

    /**
     * The caller's own assignments of ACTIVE or CANCELLED campaigns (001 §4), PENDING first, then by
     * due date; with totals for the four tiles of the my-payments page.
     */
    async mine(q: MyAssignmentsQuery) {
      const visible = and(eq(paymentAssignments.userId, actor.id), inArray(paymentCampaigns.status, ['ACTIVE', 'CANCELLED']));
      const where = and(
        visible,
        q.status ? eq(paymentAssignments.status, q.status) : undefined,
        q.campaignId ? eq(paymentAssignments.campaignId, q.campaignId) : undefined,
      );
      const rows = await allRows(
        assignmentQuery(db)
          .where(where)
          .orderBy(
            sql`case when ${paymentAssignments.status} = 'PENDING' then 0 else 1 end`,
            sql`coalesce(${paymentAssignments.dueDate}, ${paymentCampaigns.endDate})`,
            asc(paymentAssignments.id),
          )
          .limit(q.limit)
          .offset((q.page - 1) * q.limit),
      );
      const groups = await allRows(
        db
          .select({
            status: paymentAssignments.status,
            n: count(),
            amount: sql<number>`coalesce(sum(${paymentAssignments.amount}), 0)`,
            paid: sql<number>`coalesce(sum(${paymentAssignments.paidAmount}), 0)`,
          })
          .from(paymentAssignments)
          .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, paymentAssignments.campaignId))
          .innerJoin(feeLevels, eq(feeLevels.id, paymentAssignments.feeLevelId))
          .where(visible)
          .groupBy(paymentAssignments.status),
      );
      const summary = { total: 0, pending: 0, paid: 0, overdue: 0, totalAmount: 0, paidAmount: 0 };
      for (const g of groups) {
        summary.total += g.n;
        summary.totalAmount += g.amount;
        // Partly paid fees count their money too (an underpayment is still PENDING).
        summary.paidAmount += g.paid;
        if (g.status === 'PAID') {
          summary.paid += g.n;
        } else if (g.status === 'OVERDUE') summary.overdue += g.n;
        // An exempted fee is owed by no one: neither pending nor overdue.
        else if (g.status !== 'EXEMPTED') summary.pending += g.n;
      }
      const total = (await firstRow(
        db
          .select({ n: count() })
          .from(paymentAssignments)
          .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, paymentAssignments.campaignId))
          .where(where),
      ))!.n;
      const now = Date.now();
      return {
        assignments: rows.map((r) => toAssignment(r, actor.id, now)),
        total,
        page: q.page,
        limit: q.limit,
        totalPages: totalPages(total, q.limit),
        summary,
      };
    },
  };
}
