/** Row → response mapping for the payments API (explicit, so no column leaks by accident). */
import type { Assignment, Campaign, FeeLevel } from '@doanhoi/shared';
import { count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { organizations } from '../db/tables/organizations';
import { users } from '../db/tables/users';
import { campaignDeleteBlock, moneyRecordCounts } from './deletable';
import { feeLevels, paymentAssignments, paymentCampaigns, paymentOrders, payosConfigs } from '../db/tables/payments';
import { assignmentDeletable, assignmentHoldsMoney } from './assignment-deletable';
import { allRows } from '../db/engine';

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

export interface CampaignCounts {
  feeLevels: number;
  assignments: number;
  /** Money records, which keep the campaign from being deleted (deletable.ts). */
  payments: number;
}

/** Fee level, assignment and money-record counts for these campaigns, in three grouped queries. */
export async function campaignCounts(db: Db, ids: number[]) {
  const out = new Map<number, CampaignCounts>();
  for (const id of ids) out.set(id, { feeLevels: 0, assignments: 0, payments: 0 });
  if (ids.length === 0) return out;
  for (const r of await allRows(
    db
      .select({ id: feeLevels.campaignId, n: count() })
      .from(feeLevels)
      .where(inArray(feeLevels.campaignId, ids))
      .groupBy(feeLevels.campaignId),
  )) {
    out.get(r.id)!.feeLevels = r.n;
  }
  for (const r of await allRows(
    db
      .select({ id: paymentAssignments.campaignId, n: count() })
      .from(paymentAssignments)
      .where(inArray(paymentAssignments.campaignId, ids))
      .groupBy(paymentAssignments.campaignId),
  )) {
    out.get(r.id)!.assignments = r.n;
  }
  for (const [id, n] of await moneyRecordCounts(db, ids)) out.get(id)!.payments = n;
  return out;
}

export function toCampaign(r: CampaignJoined, counts: CampaignCounts, levels?: FeeLevel[]): Campaign {
  const c = r.campaign;
  const deleteBlock = campaignDeleteBlock(c.status, counts.payments);
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
    paymentCount: counts.payments,
    canDelete: deleteBlock === null,
    deleteBlockedReason: deleteBlock,
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
export async function feeLevelUsage(db: Db, ids: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>(ids.map((id) => [id, 0]));
  if (ids.length === 0) return out;
  const rows = await allRows(
    db
      .select({ id: paymentAssignments.feeLevelId, n: count() })
      .from(paymentAssignments)
      .where(inArray(paymentAssignments.feeLevelId, ids))
      .groupBy(paymentAssignments.feeLevelId),
  );
  for (const r of rows) out.set(r.id, r.n);
  return out;
}

/** An assignment with its member, fee level, campaign, organization and whether online payment is on. */
export const assignmentColumns = {
  a: paymentAssignments,
  user: {
    id: users.id,
    familyName: users.familyName,
    givenName: users.givenName,
    code: users.code,
    email: users.email,
    phone: users.phone,
  },
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
  attention: sql<
    'REFUND_DUE' | 'BALANCE_DUE' | null
  >`(select ${paymentOrders.attention} from ${paymentOrders} where ${paymentOrders.assignmentId} = ${paymentAssignments.id} and ${paymentOrders.attention} is not null and ${paymentOrders.resolution} is null order by ${paymentOrders.id} limit 1)`,
  /** Whether an order holds money, which keeps the assignment from being deleted (assignment-deletable.ts). */
  holdsMoney: assignmentHoldsMoney,
  /** Money waiting to be refunded to the member (my payments says so, issue 25.5). */
  refundDue: sql<number>`(select coalesce(sum(${paymentOrders.attentionAmount}), 0) from ${paymentOrders} where ${paymentOrders.assignmentId} = ${paymentAssignments.id} and ${paymentOrders.attention} = 'REFUND_DUE' and ${paymentOrders.resolution} is null and ${paymentOrders.reversedAt} is null)`,
};

export type CannotPayReason = NonNullable<Assignment['cannotPayReason']>;

/**
 * Why the viewer cannot pay this fee online now, or null when "pay now" is offered. A campaign
 * without an active payOS configuration collects by hand (issue 25.3): NO_ONLINE_PAYMENT tells the
 * member to pay the unit's treasurer; reminders read the same answer.
 */
export function cannotPayReason(
  r: {
    a: Pick<AssignmentJoined['a'], 'userId' | 'status' | 'amount' | 'paidAmount'>;
    campaign: { status: string; endDate: Date };
    payosActive: boolean | null;
  },
  viewerId: number,
  now = Date.now(),
): CannotPayReason | null {
  if (r.a.userId !== viewerId) return 'NOT_OWNER';
  if (r.a.status !== 'PENDING' || r.a.amount <= (r.a.paidAmount ?? 0)) return 'NOTHING_DUE';
  if (r.campaign.status !== 'ACTIVE') return 'CAMPAIGN_CLOSED';
  if (now > r.campaign.endDate.getTime()) return 'CAMPAIGN_ENDED';
  if (r.payosActive !== true) return 'NO_ONLINE_PAYMENT';
  return null;
}

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
  const why = cannotPayReason(r, viewerId, now);
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
    canPay: why === null,
    cannotPayReason: why,
    refundDue: Number(r.refundDue ?? 0),
    canDelete: assignmentDeletable(a, r.campaign.status, r.holdsMoney),
  };
}
