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
  function levelsNamed(needle: string, campaignWhere: SQL | undefined): number[] {
    const rows = db
      .select({ id: feeLevels.id, name: feeLevels.levelName })
      .from(feeLevels)
      .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, feeLevels.campaignId))
      .innerJoin(organizations, eq(organizations.id, paymentCampaigns.organizationId))
      .where(campaignWhere)
      .all();
    return rows.filter((r) => normalizeText(r.name).includes(needle)).map((r) => r.id);
  }

  function page(q: AssignmentListQuery, extra: SQL | undefined, scopeTag: string): AssignmentPage {
    const campaignWhere = and(
      extra,
      q.campaignId ? eq(paymentCampaigns.id, q.campaignId) : undefined,
      q.organizationId ? eq(paymentCampaigns.organizationId, q.organizationId) : undefined,
    );
    const needle = normalizeText(q.search);
    let searchCond: SQL | undefined;
    if (needle) {
      const levelIds = levelsNamed(needle, campaignWhere);
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
    const countNow = () =>
      db
        .select({ n: count() })
        .from(paymentAssignments)
        .innerJoin(users, eq(users.id, paymentAssignments.userId))
        .innerJoin(feeLevels, eq(feeLevels.id, paymentAssignments.feeLevelId))
        .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, paymentAssignments.campaignId))
        .innerJoin(organizations, eq(organizations.id, paymentCampaigns.organizationId))
        .where(where)
        .get()!.n;
    // Searches match names that other domains edit, so only unsearched totals are cached.
    const total = needle
      ? countNow()
      : cachedTotal(
          db,
          ['payment_assignments', 'users', 'fee_levels', 'payment_campaigns', 'organizations'],
          filterKey({ scopeTag, c: q.campaignId, o: q.organizationId, u: q.userId, s: q.status, f: q.feeLevelId }),
          countNow,
        );
    const dir = q.sortOrder === 'asc' ? asc : desc;
    const rows = assignmentQuery(db)
      .where(where)
      .orderBy(...SORT[q.sortBy].map((col) => dir(col)), dir(paymentAssignments.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .all();
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
    list(q: AssignmentListQuery): AssignmentPage {
      if (q.campaignId) {
        const campaign = loadCampaign(db, q.campaignId);
        if (!can(db, actor, P.read, campaign.organizationId)) forbidden();
      }
      if (q.organizationId && !can(db, actor, P.read, q.organizationId)) forbidden();
      const scope = orgScope(db, actor, P.read);
      return page(q, scopeCondition(scope, organizations.path), scopeKey(scope));
    },

    /** The route has checked read in this organization. */
    byOrganization(organizationId: number, q: AssignmentListQuery): AssignmentPage {
      return page({ ...q, organizationId }, undefined, `org:${organizationId}`);
    },

    /** The member's own assignment, or one the caller may read. */
    get(id: number): Assignment {
      const row = assignmentQuery(db).where(eq(paymentAssignments.id, id)).get();
      if (!row) notFound(ASSIGNMENT_NOT_FOUND);
      if (row!.a.userId !== actor.id && !can(db, actor, P.read, row!.organization.id)) forbidden();
      return toAssignment(row!, actor.id);
    },

    /**
     * The caller's own assignments of ACTIVE or CANCELLED campaigns (001 §4), PENDING first, then by
     * due date; with totals for the four tiles of the my-payments page.
     */
    mine(q: MyAssignmentsQuery) {
      const visible = and(eq(paymentAssignments.userId, actor.id), inArray(paymentCampaigns.status, ['ACTIVE', 'CANCELLED']));
      const where = and(
        visible,
        q.status ? eq(paymentAssignments.status, q.status) : undefined,
        q.campaignId ? eq(paymentAssignments.campaignId, q.campaignId) : undefined,
      );
      const rows = assignmentQuery(db)
        .where(where)
        .orderBy(
          sql`case when ${paymentAssignments.status} = 'PENDING' then 0 else 1 end`,
          sql`coalesce(${paymentAssignments.dueDate}, ${paymentCampaigns.endDate})`,
          asc(paymentAssignments.id),
        )
        .limit(q.limit)
        .offset((q.page - 1) * q.limit)
        .all();
      const groups = db
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
        .groupBy(paymentAssignments.status)
        .all();
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
      const total = db
        .select({ n: count() })
        .from(paymentAssignments)
        .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, paymentAssignments.campaignId))
        .where(where)
        .get()!.n;
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
