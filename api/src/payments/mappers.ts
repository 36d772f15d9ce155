/** Row → response mapping for the payments API (explicit, so no column leaks by accident). */
import type { Assignment, Campaign, FeeLevel } from '@doanhoi/shared';
import { count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { organizations } from '../organizations/schema';
import { users } from '../users/schema';
import { feeLevels, paymentAssignments, paymentCampaigns, paymentOrders, payosConfigs } from './schema';

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

export type CampaignRow = typeof paymentCampaigns.$inferSelect;
export type FeeLevelRow = typeof feeLevels.$inferSelect;

/** Columns of a campaign with its organization and creator (left joins: either may be gone). */
export const campaignColumns = {
  campaign: paymentCampaigns,
  organization: { id: organizations.id, name: organizations.name, code: organizations.code, type: organizations.type },
  creator: { id: users.id, familyName: users.familyName, givenName: users.givenName, email: users.email, code: users.code },
};

export function campaignQuery(db: Db) {
  return db
    .select(campaignColumns)
    .from(paymentCampaigns)
    .innerJoin(organizations, eq(organizations.id, paymentCampaigns.organizationId))
    .leftJoin(users, eq(users.id, paymentCampaigns.createdBy));
}

type CampaignJoined = Awaited<ReturnType<ReturnType<typeof campaignQuery>['all']>>[number];

/** Fee level and assignment counts for these campaigns, in two grouped queries. */
export function campaignCounts(db: Db, ids: number[]) {
  const out = new Map<number, { feeLevels: number; assignments: number }>();
  for (const id of ids) out.set(id, { feeLevels: 0, assignments: 0 });
  if (ids.length === 0) return out;
  for (const r of db.select({ id: feeLevels.campaignId, n: count() }).from(feeLevels).where(inArray(feeLevels.campaignId, ids)).groupBy(feeLevels.campaignId).all()) {
    out.get(r.id)!.feeLevels = r.n;
  }
  for (const r of db
    .select({ id: paymentAssignments.campaignId, n: count() })
    .from(paymentAssignments)
    .where(inArray(paymentAssignments.campaignId, ids))
    .groupBy(paymentAssignments.campaignId)
    .all()) {
    out.get(r.id)!.assignments = r.n;
  }
  return out;
}

export function toCampaign(r: CampaignJoined, counts: { feeLevels: number; assignments: number }, levels?: FeeLevel[]): Campaign {
  const c = r.campaign;
  return {
    id: c.id,
    organizationId: c.organizationId,
    organization: r.organization ? { ...r.organization } : null,
    name: c.name,
    description: c.description,
    startDate: c.startDate.toISOString(),
    endDate: c.endDate.toISOString(),
    status: c.status,
    createdBy: c.createdBy,
    createdByUser: r.creator ? { ...r.creator } : null,
    feeLevelCount: counts.feeLevels,
    assignmentCount: counts.assignments,
    ...(levels ? { feeLevels: levels } : {}),
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

export function toFeeLevel(r: FeeLevelRow, assignmentCount: number): FeeLevel {
  return {
    id: r.id,
    campaignId: r.campaignId,
    levelName: r.levelName,
    amount: r.amount,
    description: r.description,
    note: r.note,
    orderIndex: r.orderIndex,
    isDefault: r.isDefault,
    assignmentCount,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** Assignment counts per fee level. */
export function feeLevelUsage(db: Db, ids: number[]): Map<number, number> {
  const out = new Map<number, number>(ids.map((id) => [id, 0]));
  if (ids.length === 0) return out;
  const rows = db
    .select({ id: paymentAssignments.feeLevelId, n: count() })
    .from(paymentAssignments)
    .where(inArray(paymentAssignments.feeLevelId, ids))
    .groupBy(paymentAssignments.feeLevelId)
    .all();
  for (const r of rows) out.set(r.id, r.n);
  return out;
}

/** An assignment with its member, fee level, campaign, organization and whether online payment is on. */
export const assignmentColumns = {
  a: paymentAssignments,
  user: { id: users.id, familyName: users.familyName, givenName: users.givenName, code: users.code, email: users.email, phone: users.phone },
  feeLevel: { id: feeLevels.id, levelName: feeLevels.levelName, amount: feeLevels.amount },
  campaign: {
    id: paymentCampaigns.id,
    name: paymentCampaigns.name,
    description: paymentCampaigns.description,
    status: paymentCampaigns.status,
    startDate: paymentCampaigns.startDate,
    endDate: paymentCampaigns.endDate,
  },
  organization: { id: organizations.id, name: organizations.name },
  payosActive: payosConfigs.isActive,
  /** The first unresolved money flag on its orders, if any (sandbox orders of a public demo carry none). */
  attention: sql<'REFUND_DUE' | 'BALANCE_DUE' | null>`(select ${paymentOrders.attention} from ${paymentOrders} where ${paymentOrders.assignmentId} = ${paymentAssignments.id} and ${paymentOrders.attention} is not null and ${paymentOrders.resolution} is null order by ${paymentOrders.id} limit 1)`,
};

export function assignmentQuery(db: Db) {
  return db
    .select(assignmentColumns)
    .from(paymentAssignments)
    .innerJoin(users, eq(users.id, paymentAssignments.userId))
    .innerJoin(feeLevels, eq(feeLevels.id, paymentAssignments.feeLevelId))
    .innerJoin(paymentCampaigns, eq(paymentCampaigns.id, paymentAssignments.campaignId))
    .innerJoin(organizations, eq(organizations.id, paymentCampaigns.organizationId))
    .leftJoin(payosConfigs, eq(payosConfigs.campaignId, paymentAssignments.campaignId));
}

export type AssignmentJoined = Awaited<ReturnType<ReturnType<typeof assignmentQuery>['all']>>[number];

export function toAssignment(r: AssignmentJoined, viewerId: number, now = Date.now()): Assignment {
  const a = r.a;
  const ended = now > r.campaign.endDate.getTime();
  return {
    id: a.id,
    campaignId: a.campaignId,
    userId: a.userId,
    feeLevelId: a.feeLevelId,
    status: a.status,
    displayStatus: a.status === 'PENDING' && ended ? 'OVERDUE' : a.status,
    amount: a.amount,
    paidAmount: a.paidAmount,
    remainingAmount: Math.max(0, a.amount - (a.paidAmount ?? 0)),
    isTestPayment: a.isTestPayment,
    attention: r.attention ?? null,
    paidAt: iso(a.paidAt),
    paymentDate: iso(a.paidAt),
    paymentMethod: a.paymentMethod,
    dueDate: iso(a.dueDate),
    notes: a.notes,
    note: a.notes,
    assignedBy: a.assignedBy,
    assignedAt: a.createdAt.toISOString(),
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
    user: { ...r.user },
    feeLevel: { ...r.feeLevel },
    campaign: {
      id: r.campaign.id,
      name: r.campaign.name,
      description: r.campaign.description,
      status: r.campaign.status,
      startDate: r.campaign.startDate.toISOString(),
      endDate: r.campaign.endDate.toISOString(),
      organization: { ...r.organization },
    },
    adjustment: a.adjustment,
    originalAmount: a.originalAmount,
    adjustmentReason: a.adjustmentReason,
    adjustedAt: iso(a.adjustedAt),
    canPay: a.userId === viewerId && a.status === 'PENDING' && a.amount > (a.paidAmount ?? 0) && r.campaign.status === 'ACTIVE' && !ended && r.payosActive === true,
  };
}
